// `torana backup create | verify | restore`: online backups of a node's data directory (docs/operations.md
// "Backups and restores"). Only declarations here; backup-actions.ts holds the code.

import type { Command } from 'commander';
import { lazyAction } from './lazy.js';

const actions = () => import('./backup-actions.js');

export function registerBackupCommands(program: Command): void {
  const backup = program
    .command('backup')
    .description("back up and restore a node's data directory (the node may run while backing up)");
  backup
    .command('create')
    .description('copy the data of --dir into a new directory, consistently, while the node runs')
    .requiredOption('--to <dir>', 'where to write the backup (new or empty)')
    .option('--config <file>', 'configuration file instead of <dir>/config.toml')
    .addHelpText(
      'after',
      '\nKeys and config.toml are not copied: keep them with your own secret storage.\n\n' +
        'Example:\n  torana backup create --dir /var/lib/torana --to /backups/torana-2026-11-29\n',
    )
    .action(lazyAction(actions, 'backupCreate'));
  backup
    .command('verify')
    .description("check a backup's files against its manifest")
    .requiredOption('--from <dir>', 'the backup directory')
    .addHelpText('after', '\nExample:\n  torana backup verify --from /backups/torana-2026-11-29\n')
    .action(lazyAction(actions, 'backupVerify'));
  backup
    .command('restore')
    .description("restore a backup into --dir's data directory (the node must be stopped)")
    .requiredOption('--from <dir>', 'the backup directory')
    .option('--replace', 'move a non-empty data directory aside (kept, not deleted) instead of refusing')
    .addHelpText(
      'after',
      '\nThen `torana verify --dir <dir>` re-checks the chain, and `torana start` replays the blocks the\n' +
        'backup holds beyond its state and syncs the rest from the peers.\n\n' +
        'Example:\n  torana backup restore --from /backups/torana-2026-11-29 --dir /var/lib/torana\n',
    )
    .action(lazyAction(actions, 'backupRestore'));
}
