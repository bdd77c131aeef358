// Figure `state_1m_restart_ready_s` (scale: restart-to-ready with 1,000,000 accounts; no
// goal is set). A fresh node process opens the built directory: `Node.start` until its gateway
// answers `GET /v1/domains?limit=5` (as `restart_ready_s` measures), against the same with 1,000 accounts.

import { scaleExtra, scaleNote } from '../lib/scale.js';
import { type Figure, type FigureResult, NO_GOAL, ratioOf } from '../lib/types.js';

export const state1mRestartFigure: Figure = {
  id: 'state_1m_restart_ready_s',
  async run(ctx): Promise<FigureResult> {
    const r = await ctx.fixtures.scale();
    return {
      id: 'state_1m_restart_ready_s',
      value: r.large.readyS,
      unit: 's',
      baseline: `restart-to-ready with ${r.base.accounts} accounts`,
      baseline_value: r.base.readyS,
      ratio: ratioOf(r.large.readyS, r.base.readyS),
      goal: NO_GOAL,
      met: false,
      assessed: false,
      note: `${scaleNote(r)}; Node.start to the first HTTP answer, process start-up excluded; no goal is set (restart_ready_s's 5 s is for 1,000,000 transactions, not accounts)`,
      extra: {
        ...scaleExtra(r),
        large_node_start_s: Number(r.large.startS.toFixed(3)),
        base_node_start_s: Number(r.base.startS.toFixed(3)),
        large_height: r.large.height,
      },
    };
  },
};
