// Figures `indexer_blocks_per_s`, `indexer_rows_per_s` and `index_lag_p99_ms`: `torana index --pg`
// (src/indexer/indexer.ts, run in the bench process) against a node in its own process (withDir, block
// commit times announced) and a PostgreSQL of its own (test/helpers/postgres.ts, fsync off). One
// measurement shared by the three within a run:
// 1. catch-up: the batch figure's load for the load duration makes a backlog; the indexer indexes it
//    from an empty database (verify, re-execute, write). Blocks and rows written per second, from its
//    start until the node's tip is indexed. Baseline, same run and server: a bare COPY of the same
//    rows (every indexer table read back with COPY TO, then COPY FROM into empty copies of the tables,
//    one transaction, no verification or execution): rows per second, and the same as blocks per second.
// 2. lag: transfers paced at half the HTTP peak (`committed_tx_per_s`'s measurement) for the load
//    duration while the indexer tails the node; per block, from the node's commit (its `B` line, epoch
//    ms) to the indexer's commit of that block's batch (epoch ms here). Baseline: the block time.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { runIndexer } from '../../src/indexer/indexer.js';
import { transactionHash } from '../../src/model/transaction.js';
import { genesisFromJson, genesisRoster } from '../../src/node/genesis.js';
import { startPostgres } from '../../test/helpers/postgres.js';
import { BENCH_CHAIN_ID } from '../lib/chain.js';
import { httpPaced } from '../lib/http-load.js';
import { HTTP_NODE_NOTE, startHttpNode } from '../lib/http-node.js';
import { waitIdle } from '../lib/node-idle.js';
import { percentile } from '../lib/timing.js';
import { presignedSigned } from '../lib/transfers.js';
import type { Figure, FigureContext, FigureResult } from '../lib/types.js';
import { NO_GOAL, ratioOf } from '../lib/types.js';
import { sendBatches } from './batch-committed.js';

/** Epoch milliseconds as the node process writes its `B` lines (lib/node-server.ts). */
const nowEpochMs = () => performance.timeOrigin + performance.now();

const WAIT_MAX_MS = 600_000;
const TABLES = [
  'blocks',
  'transactions',
  'results',
  'instructions',
  'events',
  'balance_changes',
  'accounts',
  'balances',
  'asset_holders',
];

interface IndexerRun {
  blocks: number;
  rows: number;
  catchUpS: number;
  bareRows: number;
  bareS: number;
  lagsMs: number[];
  pacedRate: number;
  peakTxPerS: number;
  blockTimeMs: number;
  lagBlocks: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Every row of the indexer's tables COPYed out, then COPYed into empty copies: rows and seconds. */
async function bareCopy(pool: pg.Pool): Promise<{ rows: number; seconds: number }> {
  const client = await pool.connect();
  try {
    const dumps: { table: string; text: string; rows: number }[] = [];
    for (const table of TABLES) {
      const chunks: Buffer[] = [];
      const out = client.query(copyTo(`COPY ${table} TO STDOUT`));
      for await (const c of out) chunks.push(c as Buffer);
      const text = Buffer.concat(chunks).toString('utf8');
      dumps.push({ table, text, rows: text === '' ? 0 : text.split('\n').length - 1 });
      await client.query(`CREATE TABLE bare_${table} (LIKE ${table} INCLUDING ALL)`);
    }
    const t0 = performance.now();
    await client.query('BEGIN');
    for (const d of dumps) {
      if (d.rows === 0) continue;
      const stream = client.query(copyFrom(`COPY bare_${d.table} FROM STDIN`));
      await new Promise<void>((resolve, reject) => {
        stream.on('finish', resolve);
        stream.on('error', reject);
        stream.end(d.text);
      });
    }
    await client.query('COMMIT');
    return { rows: dumps.reduce((n, d) => n + d.rows, 0), seconds: (performance.now() - t0) / 1000 };
  } finally {
    client.release();
  }
}

async function measure(ctx: FigureContext): Promise<IndexerRun> {
  const seconds = ctx.fixtures.loadSeconds();
  const peak = await ctx.fixtures.httpPeak();
  const pgs = await startPostgres();
  const node = await startHttpNode({ withDir: true, blocks: true });
  const stop = new AbortController();
  let indexing: Promise<unknown> | undefined;
  try {
    await pgs.createDatabase('bench');
    const json = JSON.parse(await readFile(join(node.dir, 'genesis.json'), 'utf8')) as { chain_id: string };
    const genesis = genesisFromJson(json, json.chain_id);
    const source = presignedSigned(node.accounts, BENCH_CHAIN_ID, ctx.fixtures.presignCount());
    ctx.log(`${seconds} s of batched transfers, then the indexer catches up from an empty database`);
    await sendBatches(node.url, seconds, () => source.next().bytes);
    const target = await waitIdle(node, WAIT_MAX_MS);
    const written = new Map<number, number>();
    let at = { height: 0, blocks: 0, rows: 0 };
    const t0 = performance.now();
    indexing = runIndexer({
      pg: pgs.conninfo('bench'),
      from: node.url,
      genesis: {
        chainId: genesis.chainId,
        validators: genesisRoster(genesis),
        transactionHash: transactionHash(genesis.transaction),
      },
      signal: stop.signal,
      onWritten: (height, blocks, rows) => {
        written.set(height, nowEpochMs());
        at = { height, blocks, rows };
      },
    });
    indexing.catch(() => undefined);
    while (at.height < target) {
      if (performance.now() - t0 > WAIT_MAX_MS) throw new Error(`indexer not caught up in ${WAIT_MAX_MS} ms`);
      await Promise.race([indexing, sleep(10)]);
    }
    const catchUpS = (performance.now() - t0) / 1000;
    const caught = at;
    // The lag: half the peak, paced, while the indexer tails the node.
    const rate = Math.max(1, Math.floor(peak.txPerS / 2));
    ctx.log(`${seconds} s of transfers paced at ${rate} tx/s (half the peak) while the indexer tails`);
    await httpPaced(node, rate, seconds);
    const tip = await waitIdle(node, WAIT_MAX_MS);
    const t1 = performance.now();
    while (at.height < tip) {
      if (performance.now() - t1 > WAIT_MAX_MS)
        throw new Error(`indexer not at the tip in ${WAIT_MAX_MS} ms`);
      await Promise.race([indexing, sleep(10)]);
    }
    stop.abort();
    await indexing;
    // A batch's blocks are committed together: each block's lag runs to its batch's commit.
    const lagsMs: number[] = [];
    let batchAt: number | undefined;
    for (let h = tip; h > target; h--) {
      batchAt = written.get(h) ?? batchAt;
      const committed = node.blockTimes.get(h);
      if (batchAt !== undefined && committed !== undefined) lagsMs.push(batchAt - committed);
    }
    const pool = new pg.Pool({ host: pgs.dir, port: 5432, user: 'torana', database: 'bench', max: 1 });
    try {
      const bare = await bareCopy(pool);
      return {
        blocks: caught.blocks,
        rows: caught.rows,
        catchUpS,
        bareRows: bare.rows,
        bareS: bare.seconds,
        lagsMs,
        pacedRate: rate,
        peakTxPerS: peak.txPerS,
        blockTimeMs: node.blockTimeMs,
        lagBlocks: tip - target,
      };
    } finally {
      await pool.end();
    }
  } finally {
    stop.abort();
    await indexing?.catch(() => undefined);
    await node.stop();
    await pgs.stop();
  }
}

let shared: Promise<IndexerRun> | undefined;
const NOTE = `${HTTP_NODE_NOTE}; indexer in the bench process; PostgreSQL 15 on a unix socket, fsync off`;

export const indexerBlocksFigure: Figure = {
  id: 'indexer_blocks_per_s',
  async run(ctx): Promise<FigureResult> {
    shared ??= measure(ctx);
    const r = await shared;
    const value = r.blocks / r.catchUpS;
    const bare = r.blocks / r.bareS;
    return {
      id: 'indexer_blocks_per_s',
      value,
      unit: 'blocks/s',
      baseline: 'bare COPY of the same rows (as blocks per second)',
      baseline_value: bare,
      ratio: ratioOf(value, bare),
      goal: NO_GOAL,
      met: true,
      note: `${NOTE}; catch-up from an empty database (verify, re-execute, write)`,
      extra: {
        blocks: r.blocks,
        seconds: Number(r.catchUpS.toFixed(2)),
        bare_seconds: Number(r.bareS.toFixed(3)),
      },
    };
  },
};

export const indexerRowsFigure: Figure = {
  id: 'indexer_rows_per_s',
  async run(ctx): Promise<FigureResult> {
    shared ??= measure(ctx);
    const r = await shared;
    const value = r.rows / r.catchUpS;
    const bare = r.bareRows / r.bareS;
    return {
      id: 'indexer_rows_per_s',
      value,
      unit: 'rows/s',
      baseline: 'bare COPY of the same tables into empty copies, one transaction',
      baseline_value: bare,
      ratio: ratioOf(value, bare),
      goal: NO_GOAL,
      met: true,
      note: `${NOTE}; rows = COPY rows + upserts written during the catch-up`,
      extra: { rows: r.rows, bare_rows: r.bareRows },
    };
  },
};

export const indexLagFigure: Figure = {
  id: 'index_lag_p99_ms',
  async run(ctx): Promise<FigureResult> {
    shared ??= measure(ctx);
    const r = await shared;
    const p99 = r.lagsMs.length === 0 ? null : percentile(r.lagsMs, 99);
    return {
      id: 'index_lag_p99_ms',
      value: p99,
      unit: 'ms',
      baseline: 'block.time_ms',
      baseline_value: r.blockTimeMs,
      ratio: ratioOf(p99, r.blockTimeMs),
      goal: NO_GOAL,
      met: true,
      note: `${NOTE}; node commit (B line) to the indexer's commit of the block's batch, paced at half the HTTP peak`,
      extra: {
        p50_ms: r.lagsMs.length === 0 ? 'none' : percentile(r.lagsMs, 50),
        blocks: r.lagBlocks,
        samples: r.lagsMs.length,
        paced_rate_tx_per_s: r.pacedRate,
        peak_tx_per_s: r.peakTxPerS,
      },
    };
  },
};
