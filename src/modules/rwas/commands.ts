// `torana rwa …` (docs/rwas.md): real-world-asset lots. Declarations only; the code is in actions.ts,
// imported when a command runs (cli/lazy.ts), so `torana --help` stays light. Every command takes
// `--json` (cli/main.ts gives it to all).

import type { Command } from 'commander';
import { clientOptions } from '../../cli/client-options.js';
import { lazyAction } from '../../cli/lazy.js';

const actions = () => import('./actions.js');

export function registerRwaCommands(program: Command): void {
  const c = program
    .command('rwa')
    .description('real-world-asset lots: register, transfer (split), merge, redeem, freeze, hold, controls');
  const cmd = (usage: string, what: string) => clientOptions(c.command(usage).description(what));
  cmd(
    'register <reference> <spec> <quantity>',
    'register a lot (the signer is its controller; prints its id)',
  )
    .option('--owner <account>', 'its owner (default: the signer)')
    .option('--controls <definition>', 'the asset definition whose transfer rules it obeys')
    .option('--metadata <json>', 'a JSON object of metadata')
    .addHelpText(
      'after',
      '\nExample:\n  torana rwa register WR-2026-00042 copper-cathode-grade-a 250.000 --controls rose#wonderland\n',
    )
    .action(lazyAction(actions, 'rwaRegister'));
  cmd('transfer <lot> <to> <quantity>', 'move the whole lot, or split a part off it to <to> (owner)').action(
    lazyAction(actions, 'rwaTransfer'),
  );
  cmd('merge <lots...>', 'one new lot of 2 to 16 lots of one owner and spec (owner)').action(
    lazyAction(actions, 'rwaMerge'),
  );
  cmd('redeem <lot> <quantity>', 'burn a quantity of the lot (owner)').action(
    lazyAction(actions, 'rwaRedeem'),
  );
  cmd('freeze <lot>', 'nothing of the lot may move (controller)').action(lazyAction(actions, 'rwaFreeze'));
  cmd('unfreeze <lot>', 'lift a freeze (controller)').action(lazyAction(actions, 'rwaUnfreeze'));
  cmd('hold <lot> <quantity>', 'reserve a quantity: it may not move (controller)').action(
    lazyAction(actions, 'rwaHold'),
  );
  cmd('release <lot> <quantity>', 'release a held quantity (controller)').action(
    lazyAction(actions, 'rwaRelease'),
  );
  cmd('force-transfer <lot> <to> <quantity>', 'transfer without the owner (controller)').action(
    lazyAction(actions, 'rwaForceTransfer'),
  );
  cmd(
    'controls <lot> [definition]',
    'the definition whose transfer rules it obeys; without: none (controller)',
  ).action(lazyAction(actions, 'rwaControls'));
  cmd('list', 'lots, by id')
    .option('--limit <n>', 'page size')
    .option('--offset <n>', 'lots to skip')
    .option('--owner <account>', 'only lots of this owner')
    .action(lazyAction(actions, 'rwaList'));
  cmd('get <lot>', 'one lot with its parents, controls and holds').action(lazyAction(actions, 'rwaGet'));
}
