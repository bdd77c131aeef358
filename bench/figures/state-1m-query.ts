// Figure `state_1m_query_p99_ratio` (scale: p99 of a filtered, sorted signed `POST /query`
// with 1,000,000 accounts over the same with 1,000; no goal, the growth is documented). The SDK signs
// FindHoldersOfDefinition(coin#scale) with filter value >= 500000, sort value:desc, limit 10; one query
// at a time, rounds alternating between the nodes; an answer counts only if it holds 10 holders in order.

import { latencyExtra, scaleExtra, scaleNote } from '../lib/scale.js';
import { type Figure, type FigureResult, NO_GOAL, ratioOf } from '../lib/types.js';

export const state1mQueryFigure: Figure = {
  id: 'state_1m_query_p99_ratio',
  async run(ctx): Promise<FigureResult> {
    const r = await ctx.fixtures.scale();
    const ratio = ratioOf(r.large.query.p99Ms, r.base.query.p99Ms);
    return {
      id: 'state_1m_query_p99_ratio',
      value: ratio,
      unit: 'x',
      baseline: `p99 with ${r.base.accounts} accounts (ms)`,
      baseline_value: r.base.query.p99Ms,
      ratio,
      goal: NO_GOAL,
      met: false,
      assessed: false,
      note: `${scaleNote(r)}; FindHoldersOfDefinition, filter value >= 500000, sort value:desc, limit 10`,
      extra: {
        ...scaleExtra(r),
        ...latencyExtra(r, 'query', 1),
      },
    };
  },
};
