// `torana snapshot create | verify | restore`: the state at one certified height, to start a new peer
// from (docs/operations.md "Joining from a snapshot"). Only declarations here; snapshot-actions.ts
// holds the code.

import type { Command } from 'commander';
import { lazyAction } from './lazy.js';

const actions = () => import('./snapshot-actions.js');

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function registerSnapshotCommands(program: Command): void {
  const snapshot = program
    .command('snapshot')
    .description('write, check and restore the state at one certified height (to join without replaying)');
  snapshot
    .command('create')
    .description(
      "write the state of --dir's newest applied height, with its certified block, while the node runs",
    )
    .requiredOption('--out <file>', 'the snapshot file to write (must not exist)')
    .option('--height <height>', 'the height to write: only the newest applied one is held')
    .option('--config <file>', 'configuration file instead of <dir>/config.toml')
    .addHelpText(
      'after',
      '\nExample:\n  torana snapshot create --dir /var/lib/torana --out /tmp/torana-h1200.snap\n',
    )
    .action(lazyAction(actions, 'snapshotCreate'));
  snapshot
    .command('verify')
    .description('check a snapshot against the genesis you trust: certificate, validator set and state root')
    .requiredOption('--file <file>', 'the snapshot file')
    .requiredOption('--genesis <path>', 'the genesis.json you trust, or a node directory holding one')
    .option(
      '--trust-validator-set <hash>',
      'a further validator-set hash you vouch for (repeatable)',
      collect,
    )
    .addHelpText(
      'after',
      '\nExample:\n  torana snapshot verify --file /tmp/torana-h1200.snap --genesis ./genesis.json\n',
    )
    .action(lazyAction(actions, 'snapshotVerify'));
  snapshot
    .command('restore')
    .description("verify a snapshot, then write it as --dir's data directory (which must be empty)")
    .requiredOption('--file <file>', 'the snapshot file')
    .option('--genesis <path>', 'the genesis.json you trust (default: <dir>/genesis.json)')
    .option(
      '--trust-validator-set <hash>',
      'a further validator-set hash you vouch for (repeatable)',
      collect,
    )
    .addHelpText(
      'after',
      '\nThen `torana start --dir <dir>` opens at the snapshot height and block-syncs the rest from peers.\n\n' +
        'Example:\n  torana snapshot restore --file /tmp/torana-h1200.snap --dir /var/lib/torana-new\n',
    )
    .action(lazyAction(actions, 'snapshotRestore'));
}
