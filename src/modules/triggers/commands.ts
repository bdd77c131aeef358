// `torana trigger …` (docs/triggers.md). Declarations only; the code is in actions.ts, imported when a
// command runs (cli/lazy.ts), so `torana --help` stays light.

import type { Command } from 'commander';
import { clientOptions } from '../../cli/client-options.js';
import { lazyAction } from '../../cli/lazy.js';

const actions = () => import('./actions.js');

export function registerTriggerCommands(program: Command): void {
  const trigger = program
    .command('trigger')
    .description('time triggers: instructions run at a height or time');
  clientOptions(
    trigger
      .command('register <id> <instructions-json>')
      .description('run instructions (JSON array) when due'),
  )
    .option('--height <h>', 'due at this block height')
    .option('--at-ms <ms>', 'due at this block time (ms since the epoch)')
    .option('--every-blocks <n>', 'then repeat every n blocks')
    .option('--every-ms <ms>', 'then repeat every ms of block time')
    .addHelpText(
      'after',
      '\nExample:\n  torana trigger register tick \'[{"kind":"Log","level":{"kind":"Info"},"message":"tick"}]\' --at-ms 1893456000000 --every-ms 3600000\n',
    )
    .action(lazyAction(actions, 'triggerRegister'));
  clientOptions(trigger.command('rm <id>').description('unregister a trigger of yours')).action(
    lazyAction(actions, 'triggerRemove'),
  );
  clientOptions(trigger.command('ls').description('scheduled triggers'))
    .option('--authority <account>', 'only triggers running as this account')
    .action(lazyAction(actions, 'triggerList'));
  clientOptions(trigger.command('get <id>').description('one trigger')).action(
    lazyAction(actions, 'triggerGet'),
  );
}
