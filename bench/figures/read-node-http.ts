// Figure `read_ratio_vs_node_http` (issue 14 table: the read routes of `read_ratio_vs_bare` — the same
// rounds, shared within a run — against a bare `node:http` hello-world server, no framework at all, in its
// own process, loaded in the same alternating rounds (lib/read-load.ts); goal ≥ 0.7 of the baseline).

import { HTTP_NODE_NOTE } from '../lib/http-node.js';
import { type Figure, type FigureResult, notMeasured, ratioOf } from '../lib/types.js';

/** Issue 14 goal: read routes at 0.7 or more of bare node:http. */
const NODE_HTTP_RATIO_GOAL = 0.7;
const UNIT = 'req/s';
const GOAL = `ratio >= ${NODE_HTTP_RATIO_GOAL} of a bare node:http hello-world server`;

export const readNodeHttpFigure: Figure = {
  id: 'read_ratio_vs_node_http',
  async run(ctx): Promise<FigureResult> {
    const missing = await ctx.fixtures.gatewayMissing();
    if (missing !== undefined) return notMeasured('read_ratio_vs_node_http', UNIT, GOAL, missing);
    const rates = await ctx.fixtures.readRates();
    const node = rates.node;
    const bare = rates.bareNodeHttp;
    const ratio = ratioOf(node.rps, bare.rps);
    return {
      id: 'read_ratio_vs_node_http',
      value: node.rps,
      unit: UNIT,
      baseline: 'bare node:http hello server (HTTP, own process)',
      baseline_value: bare.rps,
      ratio,
      goal: GOAL,
      met:
        ratio !== null &&
        ratio >= NODE_HTTP_RATIO_GOAL &&
        node.non2xx === 0 &&
        node.errors === 0 &&
        bare.non2xx === 0,
      note: `${HTTP_NODE_NOTE}; only 2xx answers counted; node and baselines loaded in alternating rounds, median round (the node's rounds are those of read_ratio_vs_bare)`,
      extra: {
        non2xx: node.non2xx,
        errors: node.errors,
        p99_ms: node.p99,
        bare_p99_ms: bare.p99,
        rounds: node.rounds.join(' '),
        bare_rounds: bare.rounds.join(' '),
        round_s: rates.roundSeconds,
      },
    };
  },
};
