// The options every client command takes: which gateway, and which account signs (README "Command line").

import type { Command } from 'commander';

export function clientOptions(cmd: Command): Command {
  return cmd
    .option('--url <url>', 'gateway URL (default: the node running in --dir, else client.json)')
    .option('--account <id>', 'account to sign as (default from client.json)')
    .option('--key-file <file>', 'key file of that account (default from client.json)');
  // `--as NAME` (a named identity: `torana keys add`) is given to every command that has --account by
  // main.ts, after the commands are declared, so a command may keep `--as` for a meaning of its own.
}
