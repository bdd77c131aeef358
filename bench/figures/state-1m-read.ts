// Figure `state_1m_read_p99_ratio` (scale: p99 latency of `GET /v1/accounts/{id}` with
// 1,000,000 accounts over the same with 1,000, goal ≤ 1.5). Random accounts, uniform over each state, a
// closed loop of 4 concurrent requests per node, rounds alternating between the two nodes (lib/scale.ts).

import { latencyExtra, scaleExtra, scaleNote } from '../lib/scale.js';
import { type Figure, type FigureResult, ratioOf } from '../lib/types.js';

/** Goal: the point read's p99 at most 1.5 times the small state's. */
const READ_RATIO_GOAL = 1.5;

export const state1mReadFigure: Figure = {
  id: 'state_1m_read_p99_ratio',
  async run(ctx): Promise<FigureResult> {
    const r = await ctx.fixtures.scale();
    const ratio = ratioOf(r.large.read.p99Ms, r.base.read.p99Ms);
    const clean = r.large.read.errors === 0 && r.base.read.errors === 0;
    return {
      id: 'state_1m_read_p99_ratio',
      value: ratio,
      unit: 'x',
      baseline: `p99 with ${r.base.accounts} accounts (ms)`,
      baseline_value: r.base.read.p99Ms,
      ratio,
      goal: `<= ${READ_RATIO_GOAL} (p99 at 1,000,000 accounts / p99 at 1,000)`,
      met: ratio !== null && ratio <= READ_RATIO_GOAL && clean && r.largeGoalScale,
      assessed: r.largeGoalScale,
      note: `${scaleNote(r)}; only 200 answers timed`,
      extra: {
        ...scaleExtra(r),
        ...latencyExtra(r, 'read', 3),
      },
    };
  },
};
