// Figure `committed_tx_per_s` (committed transactions per second, single peer; goal
// ≥ 10,000). Signed one-transfer transactions go to `POST /transaction` over keep-alive HTTP
// (autocannon in the bench process, the node in its own process) and are counted on the node's commit
// events. Baselines in the same run: a bare Fastify route that only verifies one signature (same load
// generator and connections), and Ed25519 verifications per second on all cores (`extra`). The same
// load fed in process through `node.pipeline.submit` is in `extra` too: the cost of the HTTP layer.
// Without the gateway (src/node/serve.ts) the figure falls back to that in-process number, labelled so.

import { HTTP_NODE_NOTE } from '../lib/http-node.js';
import type { FigureContext, FigureResult } from '../lib/types.js';
import { type Figure, ratioOf } from '../lib/types.js';

/** Goal on this machine. */
const COMMITTED_GOAL_TX_PER_S = 10_000;
/** Goal: one transaction per request at half the bare verify route's rate or more. */
const COMMITTED_GOAL_RATIO = 0.5;
const GOAL = `ratio >= ${COMMITTED_GOAL_RATIO}; >= ${COMMITTED_GOAL_TX_PER_S.toLocaleString('en')} tx/s over HTTP`;
const BASELINE = 'bare Fastify verify route (HTTP)';

async function inProcessOnly(ctx: FigureContext, why: string): Promise<FigureResult> {
  const peak = await ctx.fixtures.inProcessPeak();
  const bare = await ctx.fixtures.bare('verify');
  return {
    id: 'committed_tx_per_s',
    value: peak.txPerS,
    unit: 'tx/s',
    baseline: BASELINE,
    baseline_value: bare.rps,
    ratio: ratioOf(peak.txPerS, bare.rps),
    goal: GOAL,
    met: false,
    assessed: false,
    note: `in-process submit, not HTTP (${why}); goal not assessed`,
    extra: { committed: peak.committed, seconds: peak.seconds, refused: peak.refused },
  };
}

export const committedFigure: Figure = {
  id: 'committed_tx_per_s',
  async run(ctx): Promise<FigureResult> {
    const missing = await ctx.fixtures.gatewayMissing();
    if (missing !== undefined) return inProcessOnly(ctx, missing);
    const peak = await ctx.fixtures.httpPeak();
    const bare = await ctx.fixtures.bare('verify');
    const ed = await ctx.fixtures.ed25519();
    const inProcess = await ctx.fixtures.inProcessPeak();
    return {
      id: 'committed_tx_per_s',
      value: peak.txPerS,
      unit: 'tx/s',
      baseline: BASELINE,
      baseline_value: bare.rps,
      ratio: ratioOf(peak.txPerS, bare.rps),
      goal: GOAL,
      met:
        (ratioOf(peak.txPerS, bare.rps) ?? 0) >= COMMITTED_GOAL_RATIO &&
        peak.txPerS >= COMMITTED_GOAL_TX_PER_S,
      note: `${HTTP_NODE_NOTE}; counted on Committed events`,
      extra: {
        committed: peak.committed,
        seconds: peak.seconds,
        http_202: peak.accepted202,
        http_non2xx: peak.non2xx,
        http_errors: peak.errors,
        signed_during_run: peak.signedOnTheFly,
        ed25519_verify_per_s_all_cores: ed.perSecond,
        ratio_vs_ed25519_all_cores: peak.txPerS / ed.perSecond,
        in_process_tx_per_s: inProcess.txPerS,
        bare_verify_non2xx: bare.non2xx,
      },
    };
  },
};
