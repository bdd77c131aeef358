// Figures `read_ratio_vs_bare` (read routes per second — `/status`,
// `/v1/domains?limit=5`, `/v1/accounts/{id}` with autocannon — against a bare Fastify hello-world route
// in the same run; goal ≥ 0.8 of the baseline) and `read_ratio_vs_node_http` (the same
// rounds against a bare `node:http` hello-world server, no framework at all; goal ≥ 0.7). Each connection
// cycles through the three routes; the node and both bare servers each run in their own process, loaded
// in alternating rounds (lib/read-load.ts), one measurement shared by both figures within a run.

import { HTTP_NODE_NOTE } from '../lib/http-node.js';
import type { ReadRates } from '../lib/read-load.js';
import { type Figure, type FigureId, type FigureResult, notMeasured, ratioOf } from '../lib/types.js';

const UNIT = 'req/s';

interface ReadFigureSpec {
  id: FigureId;
  goalRatio: number;
  /** What the goal is a share of, as the table prints it. */
  goalOf: string;
  baseline: string;
  bareOf: (rates: ReadRates) => ReadRates['bareFastify'];
  noteTail: string;
}

function readFigureAgainst(spec: ReadFigureSpec): Figure {
  const goal = `ratio >= ${spec.goalRatio} of ${spec.goalOf}`;
  return {
    id: spec.id,
    async run(ctx): Promise<FigureResult> {
      const missing = await ctx.fixtures.gatewayMissing();
      if (missing !== undefined) return notMeasured(spec.id, UNIT, goal, missing);
      const rates = await ctx.fixtures.readRates();
      const node = rates.node;
      const bare = spec.bareOf(rates);
      const ratio = ratioOf(node.rps, bare.rps);
      return {
        id: spec.id,
        value: node.rps,
        unit: UNIT,
        baseline: spec.baseline,
        baseline_value: bare.rps,
        ratio,
        goal,
        met:
          ratio !== null &&
          ratio >= spec.goalRatio &&
          node.non2xx === 0 &&
          node.errors === 0 &&
          bare.non2xx === 0,
        note: `${HTTP_NODE_NOTE}; only 2xx answers counted; node and baselines loaded in alternating rounds, median round${spec.noteTail}`,
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
}

/** Goal: read routes at 0.8 or more of the bare Fastify route. */
export const readFigure = readFigureAgainst({
  id: 'read_ratio_vs_bare',
  goalRatio: 0.8,
  goalOf: 'a bare Fastify hello-world route',
  baseline: 'bare Fastify hello route (HTTP, own process)',
  bareOf: (rates) => rates.bareFastify,
  noteTail: '',
});

/** Goal: read routes at 0.7 or more of bare node:http. */
export const readNodeHttpFigure = readFigureAgainst({
  id: 'read_ratio_vs_node_http',
  goalRatio: 0.7,
  goalOf: 'a bare node:http hello-world server',
  baseline: 'bare node:http hello server (HTTP, own process)',
  bareOf: (rates) => rates.bareNodeHttp,
  noteTail: " (the node's rounds are those of read_ratio_vs_bare)",
});
