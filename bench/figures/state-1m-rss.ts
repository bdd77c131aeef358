// Figure `state_1m_rss_mib` (scale: node RSS with 1,000,000 accounts holding one asset each,
// goal ≤ 1 GiB). The node's resident set after a full GC, once the read and query loads have run (state
// open and serving), against the same measure of a node with 1,000 accounts in the same run (lib/scale.ts).

import { scaleExtra, scaleNote } from '../lib/scale.js';
import { type Figure, type FigureResult, ratioOf } from '../lib/types.js';

/** Goal: 1 GiB. */
const RSS_GOAL_MIB = 1024;

export const state1mRssFigure: Figure = {
  id: 'state_1m_rss_mib',
  async run(ctx): Promise<FigureResult> {
    const r = await ctx.fixtures.scale();
    const l = r.large;
    return {
      id: 'state_1m_rss_mib',
      value: l.rssMiB,
      unit: 'MiB',
      baseline: `RSS with ${r.base.accounts} accounts`,
      baseline_value: r.base.rssMiB,
      ratio: ratioOf(l.rssMiB, r.base.rssMiB),
      goal: `<= ${RSS_GOAL_MIB} MiB with 1,000,000 accounts`,
      met: l.rssMiB <= RSS_GOAL_MIB && r.largeGoalScale,
      assessed: r.largeGoalScale,
      note: `${scaleNote(r)}; RSS after a full GC (--expose-gc) once the loads have run`,
      extra: {
        ...scaleExtra(r),
        large_heap_used_mib: Math.round(l.heapMiB),
        large_rss_anon_mib: Math.round(l.rssAnonMiB),
        large_rss_file_mib: Math.round(l.rssFileMiB),
        large_rss_before_load_mib: Math.round(l.rssBeforeLoadMiB),
        base_heap_used_mib: Math.round(r.base.heapMiB),
      },
    };
  },
};
