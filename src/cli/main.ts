// The `torana` command line (README "Command line"). Every command takes `--dir` (default ./.torana)
// and `--json`, even where it does not need them, so scripts can pass the same flags to any command.
// This module and the declaration modules it imports stay light (commander and node:path): the code
// of a command is imported when it runs (lazy.ts), so `torana --help` does not load the node.

import { Command, CommanderError, Option } from 'commander';
import { MODULE_CLI_ID_NAMES, MODULE_COMMANDS } from '../modules/commands.js';
import { DEFAULT_NODE_DIR } from '../node/files.js';
import { registerBackupCommands } from './backup-commands.js';
import { registerClientCommands } from './client-commands.js';
import { EXIT } from './errors.js';
import { registerExportCommands } from './export-commands.js';
import { failureOf, writeFailure } from './failure.js';
import { registerGenesisCommands } from './genesis-commands.js';
import { installCliIdNames } from './id-names.js';
import { registerIndexCommand } from './index-commands.js';
import { registerNodeCommands } from './node-commands.js';
import { registerPermissionCommands } from './permission-commands.js';
import { registerSnapshotCommands } from './snapshot-commands.js';
import { registerTestnetCommands } from './testnet-commands.js';

function hasOption(cmd: Command, long: string): boolean {
  return cmd.options.some((o) => o.long === long);
}

/** Commands whose `--as` names the identity to sign as (others may use `--as` for their own option). */
const identityAs = new WeakSet<Command>();

/**
 * Gives every runnable command `--dir` and `--json` (the README promises both everywhere), and each
 * command that signs as an account (`--account`) `--as NAME`, a named identity (identities.ts).
 */
function addCommonOptions(cmd: Command): void {
  if (cmd.commands.length > 0) {
    for (const sub of cmd.commands) addCommonOptions(sub);
    return;
  }
  if (!hasOption(cmd, '--dir')) cmd.option('--dir <dir>', 'node directory', DEFAULT_NODE_DIR);
  if (!hasOption(cmd, '--json'))
    cmd.option('--json', 'machine-readable output: JSON (one document per line when following)');
  if (hasOption(cmd, '--account') && !hasOption(cmd, '--as')) {
    cmd.addOption(
      new Option('--as <name>', 'sign as this named identity (torana keys add), not --account/--key-file'),
    );
    identityAs.add(cmd);
  }
}

/**
 * `--as NAME` before the command (`torana --as alice asset …`) or after it: handed to the action as
 * `identity`, so that a command with an `--as` of its own keeps it.
 */
function passIdentity(program: Command): void {
  program.hook('preAction', (_root, action) => {
    const own = identityAs.has(action) ? (action.getOptionValue('as') as string | undefined) : undefined;
    const identity = own ?? (program.opts()['as'] as string | undefined);
    if (identityAs.has(action)) action.setOptionValue('as', undefined);
    if (identity !== undefined) action.setOptionValue('identity', identity);
  });
}

/** Whether the command line asks for JSON (errors then go to stderr as JSON, not commander's text). */
let jsonOutput = false;

export function buildProgram(): Command {
  const program = new Command('torana')
    .description('torana: a permissioned ledger node, its gateway, and a client for it')
    .showHelpAfterError()
    .exitOverride()
    // Commander's own error text (and the help after it) only in text mode; main() writes the JSON.
    // Set before the commands are declared: each command copies it when created.
    .configureOutput({
      writeErr: (s) => {
        if (!jsonOutput) process.stderr.write(s);
      },
    });
  registerNodeCommands(program);
  registerClientCommands(program);
  registerPermissionCommands(program);
  // The ledger modules' command groups (src/modules/commands.ts), in registry order, and their names
  // given in place of ids (id-names.ts).
  for (const register of MODULE_COMMANDS) register(program);
  installCliIdNames(MODULE_CLI_ID_NAMES);
  registerTestnetCommands(program);
  registerGenesisCommands(program);
  registerBackupCommands(program);
  registerIndexCommand(program);
  registerSnapshotCommands(program);
  registerExportCommands(program);
  for (const cmd of program.commands) addCommonOptions(cmd);
  // Program options are read before the command only, so a command's own `--as` stays its own.
  program.enablePositionalOptions().option('--as <name>', 'sign as this named identity (torana keys add)');
  passIdentity(program);
  return program;
}

/** Runs the CLI; resolves with the process exit code. */
export async function main(argv: string[]): Promise<number> {
  jsonOutput = argv.slice(2).includes('--json');
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
  } catch (e) {
    // Help and version end through commander too, with exit code 0; its usage errors are already
    // written in text mode (with the help after them).
    if (e instanceof CommanderError) {
      if (e.exitCode === 0) return EXIT.ok;
      if (jsonOutput) writeFailure(failureOf(e), true);
      return EXIT.usage;
    }
    const failure = failureOf(e);
    writeFailure(failure, jsonOutput);
    return failure.exitCode;
  }
}

/**
 * Runs the CLI as the `torana` process: exits as soon as the command is done and its output is
 * flushed. Without this a client command lingers until the node closes the idle keep-alive
 * connection that `fetch` keeps open (hundreds of ms added to CLI start-up).
 */
export async function runAsProcess(argv: string[]): Promise<void> {
  // A reader that stops early (`torana status | head`) closes the pipe: end quietly, as other tools do.
  for (const stream of [process.stdout, process.stderr])
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw e;
    });
  let code: number;
  try {
    code = await main(argv);
  } catch (e) {
    process.stderr.write(`torana: ${(e as Error)?.stack ?? e}\n`);
    code = 1;
  }
  process.exitCode = code;
  // The write callbacks run once everything written before them is flushed (pipes may be async).
  await new Promise((resolve) => process.stdout.write('', resolve));
  await new Promise((resolve) => process.stderr.write('', resolve));
  process.exit(code);
}
