// `torana shield` (docs/conference.md "Shielded fee"): moves native asset into the shielded pool as a
// note. Only the declaration here; the code is in shield-actions.ts, imported when it runs (cli/lazy.ts).
// Registered with the `conference` group (commands.ts): private calls pay their entry fee from notes.

import type { Command } from 'commander';
import { lazyAction } from '../../cli/lazy.js';

const shieldActions = () => import('./shield-actions.js');

function options(cmd: Command): Command {
  return cmd
    .option('--url <url>', 'gateway URL (default: the node running in --dir, else client.json)')
    .option('--account <id>', 'account to sign as (default from client.json)')
    .option('--key-file <file>', 'key file of that account (default from client.json)');
}

export function registerShieldCommand(program: Command): void {
  options(
    program.command('shield <amount>').description('move native asset into the shielded pool as a note'),
  )
    .option(
      '--note-file <file>',
      'where to keep the note (default <dir>/shielded-note.json; never overwritten)',
    )
    .addHelpText(
      'after',
      '\nThe note file holds the secrets that spend the note: keep it. Private calls pay their entry fee from it.\nExample:\n  torana shield 5\n',
    )
    .action(lazyAction(shieldActions, 'shield'));
}
