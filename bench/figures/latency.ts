// Figure `commit_latency_p99_ms` (submit-to-commit latency p50/p99 at half the peak
// rate; goal p99 ≤ block time + 100 ms; baseline: the block time). A fresh node in its own process
// gets `POST /transaction` at half the peak measured by `committed_tx_per_s`, paced by undici; the
// latency of a transaction runs from just before its request is sent to its Committed event in the
// node (both clocks are this machine's). Transactions that never commit are counted, not hidden.
// Without the gateway it falls back to in-process submissions, labelled so.

import { presigned, withBenchNode } from '../lib/bench-node.js';
import { httpPaced } from '../lib/http-load.js';
import { HTTP_NODE_NOTE, startHttpNode } from '../lib/http-node.js';
import { runLoad } from '../lib/inprocess-load.js';
import { percentile } from '../lib/timing.js';
import { type Figure, type FigureContext, type FigureResult, ratioOf } from '../lib/types.js';

/** Goal: p99 ≤ block time + this. */
const LATENCY_SLACK_MS = 100;
const IN_PROCESS_IN_FLIGHT_MAX = 65_536;

async function inProcess(ctx: FigureContext, rate: number, seconds: number) {
  const r = await withBenchNode({}, async (b) => {
    const source = presigned(b.accounts, Math.ceil(rate * seconds * 1.1));
    return runLoad(b.node, {
      next: source.next,
      durationMs: seconds * 1000,
      inFlightMax: IN_PROCESS_IN_FLIGHT_MAX,
      ratePerS: rate,
      trackLatency: true,
    });
  });
  ctx.log(`in-process: ${r.latenciesMs.length} latencies`);
  return { latenciesMs: r.latenciesMs, uncommitted: r.submitted - r.committed, refused: r.refused };
}

async function overHttp(rate: number, seconds: number) {
  const node = await startHttpNode({ announce: true });
  try {
    const r = await httpPaced(node, rate, seconds);
    return { ...r, blockTimeMs: node.blockTimeMs };
  } finally {
    await node.stop();
  }
}

export const latencyFigure: Figure = {
  id: 'commit_latency_p99_ms',
  async run(ctx): Promise<FigureResult> {
    const missing = await ctx.fixtures.gatewayMissing();
    const peak = missing === undefined ? await ctx.fixtures.httpPeak() : await ctx.fixtures.inProcessPeak();
    const rate = Math.max(1, Math.floor(peak.txPerS / 2));
    const seconds = ctx.fixtures.loadSeconds();
    ctx.log(`${seconds} s of submissions paced at ${rate} tx/s (half the peak)`);
    const r = missing === undefined ? await overHttp(rate, seconds) : await inProcess(ctx, rate, seconds);
    const p99 = percentile(r.latenciesMs, 99);
    const goalMs = peak.blockTimeMs + LATENCY_SLACK_MS;
    const complete = r.uncommitted === 0 && r.refused === 0;
    return {
      id: 'commit_latency_p99_ms',
      value: p99,
      unit: 'ms',
      baseline: 'block.time_ms',
      baseline_value: peak.blockTimeMs,
      ratio: ratioOf(p99, peak.blockTimeMs),
      goal: `p99 <= block time + ${LATENCY_SLACK_MS} ms (${goalMs} ms), over HTTP`,
      met: missing === undefined && complete && p99 <= goalMs,
      assessed: missing === undefined,
      note:
        missing === undefined
          ? `${HTTP_NODE_NOTE}; paced with undici`
          : `in-process submit, not HTTP (${missing}); goal not assessed`,
      extra: {
        p50_ms: percentile(r.latenciesMs, 50),
        samples: r.latenciesMs.length,
        paced_rate_tx_per_s: rate,
        peak_tx_per_s: peak.txPerS,
        refused: r.refused,
        never_committed: r.uncommitted,
      },
    };
  },
};
