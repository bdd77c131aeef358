// `torana index` (index-commands.ts): loads the genesis file and runs the indexer (src/indexer/) until a
// signal stops it or a block fails verification.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { IndexerError } from '../indexer/errors.js';
import { runIndexer } from '../indexer/indexer.js';
import { INDEX_CHECKPOINT_BLOCKS_CEILING } from '../indexer/limits.js';
import { transactionHash } from '../model/transaction.js';
import { type Genesis, genesisFromJson, genesisRoster } from '../node/genesis.js';
import { CliError } from './errors.js';
import { printJson } from './output.js';

export interface IndexOptions {
  pg: string;
  from: string;
  genesis: string;
  dir: string;
  json?: boolean;
  checkpointBlocks: string;
}

async function readGenesis(path: string): Promise<Genesis> {
  try {
    const json = JSON.parse(await readFile(path, 'utf8')) as { chain_id?: unknown };
    return genesisFromJson(json, typeof json.chain_id === 'string' ? json.chain_id : '');
  } catch (e) {
    throw new IndexerError('index_genesis_invalid', `genesis file ${path}: ${(e as Error).message}`);
  }
}

export async function indexAction(opts: IndexOptions): Promise<void> {
  const checkpointBlocks = Number(opts.checkpointBlocks);
  if (
    !/^\d+$/.test(opts.checkpointBlocks) ||
    checkpointBlocks < 1 ||
    checkpointBlocks > INDEX_CHECKPOINT_BLOCKS_CEILING
  )
    throw new CliError(
      'invalid_argument',
      `--checkpoint-blocks must be an integer from 1 to ${INDEX_CHECKPOINT_BLOCKS_CEILING}`,
      2,
    );
  const path = opts.genesis === '<dir>/genesis.json' ? join(opts.dir, 'genesis.json') : opts.genesis;
  const genesis = await readGenesis(path);
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const report = await runIndexer({
      pg: opts.pg,
      from: opts.from,
      genesis: {
        chainId: genesis.chainId,
        validators: genesisRoster(genesis),
        transactionHash: transactionHash(genesis.transaction),
      },
      checkpointBlocks,
      signal: stop.signal,
      progress: (line) => process.stderr.write(`index: ${line}\n`),
    });
    if (opts.json)
      printJson({
        height: report.height,
        blocks_written: report.blocksWritten,
        rows_written: report.rowsWritten,
      });
    else process.stderr.write(`index: stopped at height ${report.height}\n`);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
