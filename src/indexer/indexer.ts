// `torana index --pg`: follows a node's committed blocks into PostgreSQL (docs/indexer.md). One path for
// catching up and for tailing: the block stream from the state checkpoint's height + 1 (height 1 on an
// empty database), each block verified and re-executed (follower.ts); blocks up to the indexed height
// only bring the state forward (and must have the indexed hashes), later ones are written in batches,
// each batch with the indexed height in one transaction. Every `checkpointBlocks` blocks, and when
// stopped, a batch also stores the state after it (checkpoint.ts), so a restart does not re-execute
// the chain from block 1.

import pg from 'pg';
import '../modules/load.js';
import { type Validator, ValidatorSet } from '../consensus/validator-set.js';
import { bytesEqual, toHex } from '../util/hex.js';
import { encodeState, loadCheckpoint } from './checkpoint.js';
import { IndexerError } from './errors.js';
import { ChainFollower } from './follower.js';
import { INDEX_CHECKPOINT_BLOCKS_DEFAULT } from './limits.js';
import { migrate } from './migrate.js';
import { type BlockRows, blockRows, readAfter } from './rows.js';
import { type BlockSource, openBlockStream } from './source.js';
import {
  indexedBlock,
  indexedHashes,
  readCheckpoint,
  readTip,
  writeBatch,
  writeCheckpoint,
} from './writer.js';

/** Blocks written in one PostgreSQL transaction at most (while catching up; tailing writes each block). */
export const INDEX_BATCH_BLOCKS_MAX = 64;
/** Rows written in one transaction at most (a batch ends early past it). */
export const INDEX_BATCH_ROWS_MAX = 50_000;
/** Decoded blocks waiting to be indexed before the block stream is paused. */
export const INDEX_STREAM_BLOCKS_MAX = 256;
/** Indexed block hashes read at once while the state is brought forward after a restart. */
const REPLAY_PAGE = 10_000;

export interface IndexerOptions {
  /** PostgreSQL connection string (or `host=… port=…` conninfo: see pgConfig). */
  pg: string;
  /** The node's gateway URL. */
  from: string;
  /** The chain's genesis file (node/genesis.ts): its chain id, validators and transaction hash. */
  genesis: { chainId: string; validators: Validator[]; transactionHash: Uint8Array };
  /** Progress lines (stderr in the CLI). */
  progress?: (line: string) => void;
  signal?: AbortSignal;
  /** The block source (tests); the node's block stream otherwise. */
  openSource?: (from: number) => BlockSource;
  /** Called after each committed batch with the indexed height and the totals so far (bench figures). */
  onWritten?: (height: number, blocksWritten: number, rowsWritten: number) => void;
  /** A state checkpoint at most every this many blocks (default INDEX_CHECKPOINT_BLOCKS_DEFAULT). */
  checkpointBlocks?: number;
}

export interface IndexerReport {
  height: number;
  blocksWritten: number;
  rowsWritten: number;
}

/**
 * A libpq-style connection: a URL (`postgres://…`) as it is; `key=value …` pairs (psql's conninfo) as
 * the driver's fields.
 */
export function pgConfig(conninfo: string): pg.PoolConfig {
  if (/^postgres(ql)?:\/\//.test(conninfo)) return { connectionString: conninfo };
  const out: Record<string, string | number> = {};
  const names: Record<string, string> = { dbname: 'database', user: 'user', host: 'host', port: 'port' };
  for (const m of conninfo.matchAll(/(\w+)\s*=\s*('(?:[^'\\]|\\.)*'|\S+)/g)) {
    const key = names[m[1]!] ?? m[1]!;
    const raw = m[2]!;
    const value = raw.startsWith("'") ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
    out[key] = key === 'port' ? Number(value) : value;
  }
  return out as pg.PoolConfig;
}

export async function runIndexer(opts: IndexerOptions): Promise<IndexerReport> {
  const say = opts.progress ?? (() => undefined);
  const g = opts.genesis;
  const pool = new pg.Pool({ ...pgConfig(opts.pg), max: 2 });
  pool.on('error', () => undefined); // an idle client's error surfaces on the next query
  let source: BlockSource | undefined;
  const report: IndexerReport = { height: 0, blocksWritten: 0, rowsWritten: 0 };
  try {
    const client = await pool.connect();
    try {
      const ran = await migrate(client);
      if (ran.length > 0) say(`schema: applied ${ran.join(', ')}`);
    } finally {
      client.release();
    }
    const tip = await readTip(pool);
    if (tip !== undefined && tip.chainId !== g.chainId)
      throw new IndexerError(
        'index_chain_mismatch',
        `the database indexes chain ${tip.chainId}, the genesis file is for ${g.chainId}`,
      );
    const indexed = tip?.height ?? 0;
    report.height = indexed;
    const every = opts.checkpointBlocks ?? INDEX_CHECKPOINT_BLOCKS_DEFAULT;
    // The checkpoint (written with a batch) is never above the indexed height; a database indexed
    // before checkpoints existed has none and is brought forward from block 1 once.
    const saved = indexed > 0 ? await readCheckpoint(pool) : undefined;
    const start =
      saved === undefined
        ? undefined
        : {
            state: loadCheckpoint(saved, await indexedBlock(pool, saved.height)),
            height: saved.height,
            hash: saved.blockHash,
          };
    let checkpointed = start?.height ?? 0;
    const follower = new ChainFollower({
      chainId: g.chainId,
      genesisSet: new ValidatorSet(g.validators),
      genesisTransactionHash: g.transactionHash,
      ...(start === undefined ? {} : { start }),
    });
    const from = (start?.height ?? 0) + 1;
    if (indexed === 0) say('empty database: indexing from block 1');
    else if (start === undefined)
      say(`indexed to height ${indexed}, no state checkpoint: re-executing from block 1`);
    else if (start.height === indexed)
      say(
        `indexed to height ${indexed}: state checkpoint at ${start.height} (state root checked), indexing from ${from}`,
      );
    else
      say(
        `indexed to height ${indexed}: state checkpoint at ${start.height} (state root checked), re-executing ${from}..${indexed}`,
      );
    source = (opts.openSource ?? ((f) => openBlockStream(opts.from, f, INDEX_STREAM_BLOCKS_MAX)))(from);
    const closeOnAbort = () => source?.close();
    opts.signal?.addEventListener('abort', closeOnAbort, { once: true });
    let known = new Map<number, Buffer>();
    let pending: BlockRows[] = [];
    let pendingRows = 0;
    let lastSaid = 0;
    const flush = async (stopping = false) => {
      if (pending.length === 0) return;
      const last = pending[pending.length - 1]!.height;
      // The follower's state is the state after the batch's last block here (flush runs before the
      // next block is verified).
      const checkpoint = stopping || last - checkpointed >= every ? encodeState(follower.state) : undefined;
      const w = await writeBatch(pool, g.chainId, pending, checkpoint);
      if (checkpoint !== undefined) checkpointed = last;
      report.height = pending[pending.length - 1]!.height;
      report.blocksWritten += w.blocks;
      report.rowsWritten += w.rows;
      opts.onWritten?.(report.height, report.blocksWritten, report.rowsWritten);
      pending = [];
      pendingRows = 0;
      const now = Date.now();
      if (now - lastSaid >= 1000 || source?.buffered === 0) {
        lastSaid = now;
        say(
          `indexed height ${report.height} (${report.blocksWritten} blocks, ${report.rowsWritten} rows written)`,
        );
      }
    };
    try {
      for (;;) {
        if (opts.signal?.aborted) break;
        const block = await source.next();
        const v = follower.verify(block);
        const h = block.header.height;
        if (h <= indexed) {
          if (!known.has(h)) known = await indexedHashes(pool, h, Math.min(indexed, h + REPLAY_PAGE - 1));
          const stored = known.get(h);
          if (stored === undefined || !bytesEqual(stored, v.hash))
            throw new IndexerError(
              'index_block_unlinked',
              `block ${h}: the node's block ${toHex(v.hash)} is not the indexed ${stored === undefined ? 'block (missing)' : toHex(stored)}`,
              h,
            );
          known.delete(h);
          v.commit();
          if (h === indexed) say(`state brought forward to height ${h}: indexing from ${h + 1}`);
          continue;
        }
        const rows = blockRows(v);
        v.commit();
        readAfter(rows, follower.state);
        pending.push(rows);
        pendingRows += Object.values(rows.appended).reduce((n, r) => n + r.length, 0);
        if (
          pending.length >= INDEX_BATCH_BLOCKS_MAX ||
          pendingRows >= INDEX_BATCH_ROWS_MAX ||
          source.buffered === 0
        )
          await flush();
      }
    } catch (e) {
      // The blocks verified before a failure are written; the failing height is not.
      const stopped =
        opts.signal?.aborted === true && e instanceof IndexerError && e.code === 'index_source_failed';
      if (stopped) await flush(true);
      else {
        await flush().catch(() => undefined);
        throw e;
      }
    }
    await flush(true);
    // Stopped with every verified block written: the state after the last one, unless stored already.
    if (follower.height === report.height && follower.height > checkpointed) {
      await writeCheckpoint(pool, follower.height, follower.hash, encodeState(follower.state));
      checkpointed = follower.height;
    }
    if (checkpointed > 0) say(`state checkpoint at height ${checkpointed}`);
    return report;
  } finally {
    source?.close();
    await pool.end();
  }
}
