// Figure `read_ratio_vs_bare` (issue 6 table: read routes per second — `/status`,
// `/v1/domains?limit=5`, `/v1/accounts/{id}` with autocannon — against a bare Fastify hello-world route
// in the same run; goal ≥ 0.8 of the baseline). Each connection cycles through the three routes; the
// node and the bare server each run in their own process, loaded in alternating rounds (lib/read-load.ts).

import { HTTP_NODE_NOTE } from '../lib/http-node.js';
import { type Figure, type FigureResult, notMeasured, ratioOf } from '../lib/types.js';

/** Issue 6 goal: read routes at 0.8 or more of the bare route. */
const READ_RATIO_GOAL = 0.8;
const UNIT = 'req/s';
const GOAL = `ratio >= ${READ_RATIO_GOAL} of a bare Fastify hello-world route`;

export const readFigure: Figure = {
  id: 'read_ratio_vs_bare',
  async run(ctx): Promise<FigureResult> {
    const missing = await ctx.fixtures.gatewayMissing();
    if (missing !== undefined) return notMeasured('read_ratio_vs_bare', UNIT, GOAL, missing);
    const rates = await ctx.fixtures.readRates();
    const node = rates.node;
    const bare = rates.bareFastify;
    const ratio = ratioOf(node.rps, bare.rps);
    return {
      id: 'read_ratio_vs_bare',
      value: node.rps,
      unit: UNIT,
      baseline: 'bare Fastify hello route (HTTP, own process)',
      baseline_value: bare.rps,
      ratio,
      goal: GOAL,
      met:
        ratio !== null &&
        ratio >= READ_RATIO_GOAL &&
        node.non2xx === 0 &&
        node.errors === 0 &&
        bare.non2xx === 0,
      note: `${HTTP_NODE_NOTE}; only 2xx answers counted; node and baselines loaded in alternating rounds, median round`,
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
