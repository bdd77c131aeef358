// Node commands: `torana init`, `torana start`, `torana verify`, `torana rebuild` (README "Running a
// node"). Only declarations here; node-actions.ts holds the code and is imported when one runs.

import type { Command } from 'commander';
import { lazyAction } from './lazy.js';

const actions = () => import('./node-actions.js');

/**
 * The switches the ledger modules add to `torana start` (their commands.ts calls `addStartSwitch` when it
 * registers its commands, after this file's): the option's attribute name → the configuration key it
 * sets true (node-actions.ts reads them when `start` runs).
 */
export const START_SWITCHES = new Map<string, string>();

/** The configuration keys the given `start` options switch on (`{key: true}` for each switch set). */
export function startSwitchOverrides(flags: Readonly<Record<string, unknown>>): Record<string, true> {
  const o: Record<string, true> = {};
  for (const [name, key] of START_SWITCHES) if (flags[name] === true) o[key] = true;
  return o;
}

/** Adds `--<flag>` to `torana start`, setting `key` (a boolean key of the module's section) true. */
export function addStartSwitch(program: Command, flag: string, key: string, description: string): void {
  const start = program.commands.find((c) => c.name() === 'start');
  if (start === undefined) throw new Error(`--${flag}: the start command is not registered yet`);
  start.option(`--${flag}`, description);
  START_SWITCHES.set(start.options.at(-1)!.attributeName(), key);
}

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
