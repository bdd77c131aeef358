// Figure `bft4_committed_tx_per_s` (4 validators in 4 processes on this machine, over
// HTTP, counted on Committed events at every peer; baseline the single-peer `committed_tx_per_s` of the
// same run; goal ratio >= 0.6, though the four processes share the machine's cores). Signed one-transfer
// transactions go to `POST /transaction` of the 4 gateways round-robin (autocannon, the same 32 keep-alive
// connections as the single-peer figure, spread over the gateways); a transaction counts once every peer
// has announced it Committed on its event stream, within the counting window that opens after a warm-up
// (a block takes seconds through 4 processes on 2 cores: a window opening with the load would mostly
// measure the pipeline filling); the single peer's window opens with its load.

import { BFT_NETWORK_NOTE } from '../lib/bft-network.js';
import { BFT_VALIDATORS } from '../lib/fixtures.js';
import { type Figure, type FigureResult, notMeasured, ratioOf } from '../lib/types.js';

/** Goal: at least this share of the single peer's rate. */
const RATIO_GOAL = 0.6;
const GOAL = `ratio >= ${RATIO_GOAL} of the single-peer committed_tx_per_s (same run)`;

export const bft4CommittedFigure: Figure = {
  id: 'bft4_committed_tx_per_s',
  async run(ctx): Promise<FigureResult> {
    const missing = await ctx.fixtures.gatewayMissing();
    if (missing !== undefined) return notMeasured('bft4_committed_tx_per_s', 'tx/s', GOAL, missing);
    // The single peer first (shared with committed_tx_per_s when it ran), while no network runs.
    const single = await ctx.fixtures.httpPeak();
    const peak = await ctx.fixtures.bftPeak();
    const ratio = ratioOf(peak.txPerS, single.txPerS);
    return {
      id: 'bft4_committed_tx_per_s',
      value: peak.txPerS,
      unit: 'tx/s',
      baseline: 'committed_tx_per_s (single peer, same run)',
      baseline_value: single.txPerS,
      ratio,
      goal: GOAL,
      met: ratio !== null && ratio >= RATIO_GOAL,
      note:
        `${BFT_NETWORK_NOTE}; load round-robin over the ${BFT_VALIDATORS} gateways; a transaction counts ` +
        `when all ${BFT_VALIDATORS} peers announced it Committed (GET /events) within the window after ${peak.warmupS} s of load`,
      extra: {
        validators: BFT_VALIDATORS,
        committed_at_every_peer: peak.committed,
        seconds: peak.seconds,
        warmup_s: peak.warmupS,
        http_202: peak.accepted202,
        http_non2xx: peak.non2xx,
        http_errors: peak.errors,
        signed_during_run: peak.signedOnTheFly,
        single_peer_committed: single.committed,
        heights_during_load: peak.heights,
        view_changes_during_load: peak.viewChanges.join(' '),
        view_change_causes: JSON.stringify(peak.viewChangeCauses),
      },
    };
  },
};
