// Figure `bft4_commit_latency_p99_ms` (goal p99 <= 2 x block time). On the network of
// bft4_committed_tx_per_s, once it is idle again, `POST /transaction` paced at half that figure's peak
// (as commit_latency_p99_ms paces the single peer at half its peak), round-robin over the 4 gateways with
// undici; the latency of a transaction runs from just before its request is sent to the moment the last
// of the 4 peers announced it Committed on its event stream. The block time is the one the existing
// commit_latency figure uses (`block.time_ms` of the configuration), checked against the block time
// the peers report (GET /v1/consensus/status `block_time_ms`). Never-committed transactions are counted.

import { bftPaced } from '../lib/bft-load.js';
import { BFT_NETWORK_NOTE } from '../lib/bft-network.js';
import { percentile } from '../lib/timing.js';
import { type Figure, type FigureResult, notMeasured, ratioOf } from '../lib/types.js';

/** Goal: p99 <= this many block times. */
const BLOCK_TIMES_MAX = 1.5;
const GOAL = `p99 <= ${BLOCK_TIMES_MAX} x block time, submit -> committed at every peer`;
const IDLE_TIMEOUT_MS = 300_000;

export const bft4LatencyFigure: Figure = {
  id: 'bft4_commit_latency_p99_ms',
  async run(ctx): Promise<FigureResult> {
    const missing = await ctx.fixtures.gatewayMissing();
    if (missing !== undefined) return notMeasured('bft4_commit_latency_p99_ms', 'ms', GOAL, missing);
    const single = await ctx.fixtures.httpPeak();
    const peak = await ctx.fixtures.bftPeak();
    const net = await ctx.fixtures.bftNetwork();
    const height = await net.waitIdle(IDLE_TIMEOUT_MS);
    const reported = (await net.statuses()).map((s) => s?.block_time_ms);
    if (reported.some((t) => t !== single.blockTimeMs))
      throw new Error(`peers report block times ${reported.join(', ')}, configured ${single.blockTimeMs}`);
    const rate = Math.max(1, Math.floor(peak.txPerS / 2));
    const seconds = ctx.fixtures.loadSeconds();
    ctx.log(`idle at height ${height}; ${seconds} s of submissions paced at ${rate} tx/s (half the peak)`);
    const r = await bftPaced(net, rate, seconds);
    const p99 = percentile(r.latenciesMs, 99);
    const goalMs = BLOCK_TIMES_MAX * single.blockTimeMs;
    const complete = r.uncommitted === 0 && r.refused === 0 && r.failed === 0;
    return {
      id: 'bft4_commit_latency_p99_ms',
      value: p99,
      unit: 'ms',
      baseline: 'block.time_ms',
      baseline_value: single.blockTimeMs,
      ratio: ratioOf(p99, single.blockTimeMs),
      goal: `${GOAL} (${goalMs} ms)`,
      met: complete && p99 <= goalMs,
      note:
        `${BFT_NETWORK_NOTE}; paced with undici at half the bft4 peak, round-robin over the gateways; ` +
        'committed = announced Committed by every peer (GET /events)',
      extra: {
        p50_ms: percentile(r.latenciesMs, 50),
        samples: r.latenciesMs.length,
        paced_rate_tx_per_s: rate,
        bft4_peak_tx_per_s: peak.txPerS,
        refused: r.refused,
        failed: r.failed,
        never_committed: r.uncommitted,
      },
    };
  },
};
