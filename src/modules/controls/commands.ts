// `torana controls …` (docs/controls.md): transfer controls of an asset definition, per account or for
// every holder (no account). Declarations only; the code is in actions.ts, imported when a command runs
// (cli/lazy.ts), so `torana --help` stays light.

import type { Command } from 'commander';
import { clientOptions } from '../../cli/client-options.js';
import { lazyAction } from '../../cli/lazy.js';

const actions = () => import('./actions.js');
type ActionName = keyof Awaited<ReturnType<typeof actions>>;

const WHO = 'without [holder]: the rule is definition-wide (every holder)';

export function registerControlCommands(program: Command): void {
  const c = program
    .command('controls')
    .description('transfer controls: freeze, blacklist, allow/deny lists, caps (definition owner)');
  const flag = (name: string, what: string, action: ActionName) =>
    clientOptions(c.command(`${name} <definition> [holder]`).description(`${what}; ${WHO}`)).action(
      lazyAction(actions, action),
    );
  flag('freeze', 'freeze outgoing transfers', 'controlsFreeze').addHelpText(
    'after',
    '\nExamples:\n  torana controls freeze usd#wonderland alice@wonderland\n  torana controls freeze usd#wonderland\n',
  );
  flag('unfreeze', 'lift a freeze', 'controlsUnfreeze');
  flag('blacklist', 'blacklist: may neither send nor receive', 'controlsBlacklist');
  flag('clear', 'clear a blacklisting', 'controlsClear');
  for (const list of ['allow', 'deny'] as const)
    clientOptions(
      c
        .command(`${list} <definition> <holder>`)
        .description(
          `add to the definition's ${list} list (an allow list in force admits only its accounts)`,
        ),
    )
      .option('--remove', `remove from the ${list} list`)
      .action(lazyAction(actions, list === 'allow' ? 'controlsAllow' : 'controlsDeny'));
  clientOptions(
    c
      .command('cap <definition> <window> [amount]')
      .description(`cap per tx | hour | day | week | month (UTC, block time); without amount: remove it`),
  )
    .option('--holder <id>', 'the account capped (default: every holder separately)')
    .addHelpText(
      'after',
      '\nExample:\n  torana controls cap usd#wonderland day 500 --holder alice@wonderland\n',
    )
    .action(lazyAction(actions, 'controlsCap'));
  clientOptions(
    c
      .command('get <definition> [holder]')
      .description("a holder's flags, caps and usage; without [holder]: the definition's rules"),
  ).action(lazyAction(actions, 'controlsGet'));
}
