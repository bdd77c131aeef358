// `torana index --pg <conninfo> --from <gateway url> --genesis <file>`: a verified PostgreSQL indexer
// (docs/indexer.md). Only the declaration here; index-actions.ts holds the code (src/indexer/).

import type { Command } from 'commander';
import { INDEX_CHECKPOINT_BLOCKS_DEFAULT } from '../indexer/limits.js';
import { lazyAction } from './lazy.js';

const actions = () => import('./index-actions.js');

export function registerIndexCommand(program: Command): void {
  program
    .command('index')
    .description("follow a node's committed blocks into PostgreSQL, each verified by its commit certificate")
    .requiredOption('--pg <conninfo>', 'PostgreSQL: postgres://user@host:port/db or "host=… port=… dbname=…"')
    .requiredOption('--from <url>', "the node's gateway URL (its block stream)")
    .option('--genesis <file>', "the chain's genesis file (the validators of block 1)", '<dir>/genesis.json')
    .option(
      '--checkpoint-blocks <n>',
      'store the verified state every n blocks at most (a restart re-executes only the blocks after it)',
      String(INDEX_CHECKPOINT_BLOCKS_DEFAULT),
    )
    .addHelpText(
      'after',
      '\nRuns until stopped (SIGINT/SIGTERM), resuming at the indexed height + 1 on restart from its state\n' +
        'checkpoint (re-executing only the blocks after it, never the chain from block 1). A block whose\n' +
        'certificate does not verify stops it (exit 1, index_certificate_invalid) with nothing written\n' +
        'for that height.\n\n' +
        'Example:\n  torana index --pg postgres://torana@localhost/ledger --from http://127.0.0.1:8080 --genesis genesis.json\n',
    )
    .action(lazyAction(actions, 'indexAction'));
}
