// Figure `batch_committed_tx_per_s`: one client sends pre-signed
// one-transfer transactions in batches of BATCH_ITEMS to `POST /v1/transactions/batch`, with
// BATCH_CONCURRENCY requests in flight on keep-alive connections, to a node in its own process (fsync
// on, bench/lib/http-node.ts); transactions count on the node's Committed events, as for
// committed_tx_per_s. Baseline: Ed25519 verifications per second on all cores (the fixtures'
// `ed25519()`), the work every admitted transaction needs at least. Goal: ratio >= 0.35.

import { Pool } from 'undici';
import { BENCH_CHAIN_ID } from '../lib/chain.js';
import { SUBMIT_HEADERS } from '../lib/http-load.js';
import { HTTP_NODE_NOTE, startHttpNode } from '../lib/http-node.js';
import { presignedSigned } from '../lib/transfers.js';
import type { FigureContext, FigureResult } from '../lib/types.js';
import { type Figure, ratioOf } from '../lib/types.js';

export const BATCH_ITEMS = 256;
const BATCH_CONCURRENCY = 4;
const GOAL_RATIO = 0.35;
/** A framed transaction's header; a batch item is the payload alone (docs/codec.md §1.1, §4.2). */
const FRAME_HEADER_BYTES = 22;

/** A bare SignedTransactionBatch (version byte, item count, the items) of framed transactions. */
export function bareBatch(framed: readonly Uint8Array[]): Uint8Array {
  const count: number[] = [];
  for (let n = framed.length; ; n = Math.floor(n / 128)) {
    if (n < 128) {
      count.push(n);
      break;
    }
    count.push((n & 0x7f) | 0x80);
  }
  let bytes = 1 + count.length;
  for (const f of framed) bytes += f.length - FRAME_HEADER_BYTES;
  const out = new Uint8Array(bytes);
  out[0] = 1;
  out.set(count, 1);
  let at = 1 + count.length;
  for (const f of framed) {
    out.set(f.subarray(FRAME_HEADER_BYTES), at);
    at += f.length - FRAME_HEADER_BYTES;
  }
  return out;
}

interface BatchLoad {
  requests: number;
  non200: number;
  refusedItems: number;
}

/** Sends batches for `seconds`, BATCH_CONCURRENCY at a time. */
export async function sendBatches(url: string, seconds: number, next: () => Uint8Array): Promise<BatchLoad> {
  const pool = new Pool(url, { connections: BATCH_CONCURRENCY });
  const load: BatchLoad = { requests: 0, non200: 0, refusedItems: 0 };
  const until = performance.now() + seconds * 1000;
  const worker = async () => {
    while (performance.now() < until) {
      const items = Array.from({ length: BATCH_ITEMS }, next);
      const res = await pool.request({
        method: 'POST',
        path: '/v1/transactions/batch',
        headers: SUBMIT_HEADERS,
        body: bareBatch(items),
      });
      const body = (await res.body.json()) as { refused?: number };
      load.requests++;
      if (res.statusCode !== 200) load.non200++;
      else load.refusedItems += body.refused ?? 0;
    }
  };
  try {
    await Promise.all(Array.from({ length: BATCH_CONCURRENCY }, worker));
  } finally {
    await pool.close();
  }
  return load;
}

export const batchCommittedFigure: Figure = {
  id: 'batch_committed_tx_per_s',
  async run(ctx: FigureContext): Promise<FigureResult> {
    const seconds = ctx.fixtures.loadSeconds();
    const ed = await ctx.fixtures.ed25519();
    const node = await startHttpNode({ announce: false });
    try {
      const source = presignedSigned(node.accounts, BENCH_CHAIN_ID, ctx.fixtures.presignCount());
      ctx.log(
        `${seconds} s of POST /v1/transactions/batch (${BATCH_ITEMS} per request, ${BATCH_CONCURRENCY} in flight)`,
      );
      const start = await node.nextCount();
      const load = await sendBatches(node.url, seconds, () => source.next().bytes);
      const end = node.latest();
      const windowS = (end.atMs - start.atMs) / 1000;
      const txPerS = (end.committed - start.committed) / windowS;
      const ratio = ratioOf(txPerS, ed.perSecond);
      return {
        id: 'batch_committed_tx_per_s',
        value: txPerS,
        unit: 'tx/s',
        baseline: 'Ed25519 verify/s on all cores',
        baseline_value: ed.perSecond,
        ratio,
        goal: `ratio >= ${GOAL_RATIO}`,
        met: ratio !== null && ratio >= GOAL_RATIO,
        note: `${HTTP_NODE_NOTE}; ${BATCH_ITEMS} transactions per request, ${BATCH_CONCURRENCY} requests in flight; counted on Committed events`,
        extra: {
          committed: end.committed - start.committed,
          seconds: windowS,
          requests: load.requests,
          http_non200: load.non200,
          refused_items: load.refusedItems,
          signed_during_run: source.stats.onTheFly,
          ed25519_threads: ed.threads,
        },
      };
    } finally {
      await node.stop();
    }
  },
};
