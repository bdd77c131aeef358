// The `torana` command line (README "Command line"). Every command takes `--dir` (default ./.torana).

import { Command, CommanderError } from 'commander';
import { registerClientCommands } from './client-commands.js';
import { registerIsoCommands } from './iso-commands.js';
import { registerNodeCommands } from './node-commands.js';
import { CliError } from './settings.js';

export function buildProgram(): Command {
  const program = new Command('torana')
    .description('torana: a permissioned ledger node, its gateway, and a client for it')
    .showHelpAfterError()
    .exitOverride();
  registerNodeCommands(program);
  registerClientCommands(program);
  registerIsoCommands(program);
  return program;
}

/** Runs the CLI; resolves with the process exit code. */
export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode;
    const err = e as { code?: string; message?: string; name?: string };
    const label = err.name === 'TransactionRejectedError' ? 'rejected' : 'error';
    process.stderr.write(`${label}${err.code ? ` [${err.code}]` : ''}: ${err.message ?? String(e)}\n`);
    if (e instanceof CliError) return e.exitCode;
    return err.name === 'TransactionRejectedError' ? 3 : 1;
  }
}
