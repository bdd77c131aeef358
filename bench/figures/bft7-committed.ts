// Figure `bft7_committed_tx_per_s`: `bft4_committed_tx_per_s` with 7 validators (7 processes on this
// machine, f = 2), a network of its own started after the 4-validator one stopped. Same load (autocannon,
// 32 keep-alive connections round-robin over the 7 gateways), same counting (committed at every peer,
// window after the warm-up); baseline the single-peer `committed_tx_per_s` of the same run; goal ratio >= 0.4.

import { bftNetworkNote } from '../lib/bft-network.js';
import { BFT_WARMUP_S } from '../lib/fixtures.js';
import { type Figure, type FigureResult, notMeasured, ratioOf } from '../lib/types.js';

const VALIDATORS = 7;
const RATIO_GOAL = 0.4;
const GOAL = `ratio >= ${RATIO_GOAL} of the single-peer committed_tx_per_s (same run)`;

export const bft7CommittedFigure: Figure = {
  id: 'bft7_committed_tx_per_s',
  async run(ctx): Promise<FigureResult> {
    const missing = await ctx.fixtures.gatewayMissing();
    if (missing !== undefined) return notMeasured('bft7_committed_tx_per_s', 'tx/s', GOAL, missing);
    const single = await ctx.fixtures.httpPeak();
    const peak = await ctx.fixtures.bftPeakOf(VALIDATORS);
    const ratio = ratioOf(peak.txPerS, single.txPerS);
    return {
      id: 'bft7_committed_tx_per_s',
      value: peak.txPerS,
      unit: 'tx/s',
      baseline: 'committed_tx_per_s (single peer, same run)',
      baseline_value: single.txPerS,
      ratio,
      goal: GOAL,
      met: ratio !== null && ratio >= RATIO_GOAL,
      note:
        `${bftNetworkNote(VALIDATORS)}; load round-robin over the ` +
        `${VALIDATORS} gateways; a transaction counts when all ${VALIDATORS} peers announced it Committed ` +
        `(GET /events) within the window after ${BFT_WARMUP_S} s of load`,
      extra: {
        validators: VALIDATORS,
        committed_at_every_peer: peak.committed,
        seconds: peak.seconds,
        warmup_s: peak.warmupS,
        http_202: peak.accepted202,
        http_non2xx: peak.non2xx,
        http_errors: peak.errors,
        single_peer_committed: single.committed,
      },
    };
  },
};
