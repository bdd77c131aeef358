// Figure `state_commit_tx_per_s` (scale: single-peer commit rate with 1,000,000 accounts over the same
// with 1,000, goal ≥ 0.7 at 10,000,000). Each node of the `state_1m_*` figures runs rounds of transfers
// between random accounts of its own state in its own process (lib/scale-commit.ts: signed before the
// clock starts, fed through the pipeline, counted on commit events), rounds alternating between the two
// nodes after a warm-up round (lib/scale.ts).

import { scaleExtra, scaleNote } from '../lib/scale.js';
import { type Figure, type FigureResult, ratioOf } from '../lib/types.js';

/** Goal: the large state commits at least 0.7 times as many transactions per second as the small one. */
const COMMIT_RATIO_GOAL = 0.7;
/** The goal is set for this many accounts; a smaller large state reports the ratio, not the goal. */
const COMMIT_GOAL_ACCOUNTS = 10_000_000;

export const stateCommitFigure: Figure = {
  id: 'state_commit_tx_per_s',
  async run(ctx): Promise<FigureResult> {
    const r = await ctx.fixtures.scale();
    const l = r.large.commit;
    const b = r.base.commit;
    const ratio = ratioOf(l.txPerS, b.txPerS);
    const clean = l.rejected === 0 && b.rejected === 0;
    const assessed = r.large.accounts >= COMMIT_GOAL_ACCOUNTS;
    return {
      id: 'state_commit_tx_per_s',
      value: l.txPerS,
      unit: 'tx/s',
      baseline: `commit rate with ${r.base.accounts} accounts (tx/s)`,
      baseline_value: b.txPerS,
      ratio,
      goal: `ratio >= ${COMMIT_RATIO_GOAL} (tx/s at 10,000,000 accounts / tx/s at 1,000)`,
      met: ratio !== null && ratio >= COMMIT_RATIO_GOAL && clean && assessed,
      assessed,
      note:
        `${scaleNote(r)}; transfers of 1 between random accounts of the state, signed by 256 accounts holding Admin before ` +
        `the clock starts, submitted in process (pipeline.submit, 2,048 in flight), counted on commit events` +
        (assessed
          ? ''
          : `; goal set at ${COMMIT_GOAL_ACCOUNTS} accounts, not assessed at ${r.large.accounts}`),
      extra: {
        ...scaleExtra(r),
        large_committed: l.committed,
        base_committed: b.committed,
        large_rejected: l.rejected,
        base_rejected: b.rejected,
        large_commit_s: Number(l.seconds.toFixed(2)),
        base_commit_s: Number(b.seconds.toFixed(2)),
        large_commit_cpu_us_per_tx: Math.round(l.cpuUsPerTx),
        base_commit_cpu_us_per_tx: Math.round(b.cpuUsPerTx),
        large_commit_major_faults: l.majorFaults,
        base_commit_major_faults: b.majorFaults,
      },
    };
  },
};
