// Node commands: `torana init`, `torana start`, `torana verify`, `torana rebuild` (README "Running a
// node"). Only declarations here; node-actions.ts holds the code and is imported when one runs.

import type { Command } from 'commander';
import { lazyAction } from './lazy.js';

const actions = () => import('./node-actions.js');

export function registerNodeCommands(program: Command): void {
  program
    .command('init')
    .description('write a local single-peer setup: config, keys, dev genesis, client settings')
    .option('--port <port>', 'gateway port written into the configuration')
    .addHelpText('after', '\nExample:\n  torana init --dir ./.torana\n')
    .action(lazyAction(actions, 'init'));

  program
    .command('start')
    .description('start the node (initialising the directory on first run)')
    .option('--port <port>', 'gateway port (overrides gateway.port)')
    .option('--profile <profile>', 'telemetry profile: disabled, operator, extended, developer, full')
    .option('--config <file>', 'configuration file instead of <dir>/config.toml')
    .option('--iso20022', 'enable the ISO 20022 bridge')
    .option(
      '--from-snapshot <file>',
      'when the data directory is empty: restore this state snapshot first, checked against the genesis',
    )
    .addHelpText(
      'after',
      '\nThe node leaves its address in <dir>/node.json while it runs, so that client commands given\n' +
        'the same --dir find it.\n\nExamples:\n  torana start\n  torana start --dir /var/lib/torana --port 9000 --profile operator\n',
    )
    .action(lazyAction(actions, 'start'));

  program
    .command('verify')
    .description('re-verify the whole chain from the block log and compare with the persisted state')
    .option('--config <file>', 'configuration file instead of <dir>/config.toml')
    .option(
      '--genesis-import <file>',
      'the genesis state file the nodes imported before block 1 (torana genesis import): block 1 re-executes on it',
    )
    .action(lazyAction(actions, 'verify'));

  program
    .command('rebuild')
    .description('delete the persisted world state and rebuild it by replaying every block')
    .option('--config <file>', 'configuration file instead of <dir>/config.toml')
    .action(lazyAction(actions, 'rebuild'));
}
