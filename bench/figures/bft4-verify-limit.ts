// Figure `bft4_ratio_vs_verify_limit` (the bft4 throughput against what signature verification alone
// allows a 4-peer network on this machine): every peer verifies every transaction's Ed25519 signature
// once (admission or gossip; the proposal check trusts its verified-transaction cache), so 4 peers on the
// same cores can commit at most the machine's Ed25519 verify rate on all cores ÷ 4. Value: the same
// measurement as `bft4_committed_tx_per_s` (shared within a run); baseline: the fixtures' Ed25519 rate
// (the node's VerifyPool, one worker per core) ÷ the validators; goal ratio >= 0.3.

import { BFT_NETWORK_NOTE } from '../lib/bft-network.js';
import { BFT_VALIDATORS } from '../lib/fixtures.js';
import { type Figure, type FigureResult, notMeasured, ratioOf } from '../lib/types.js';

const RATIO_GOAL = 0.3;
const GOAL = `ratio >= ${RATIO_GOAL} of the ${BFT_VALIDATORS}-peer verify limit (Ed25519 verify/s on all cores / ${BFT_VALIDATORS}, same run)`;

export const bft4VerifyLimitFigure: Figure = {
  id: 'bft4_ratio_vs_verify_limit',
  async run(ctx): Promise<FigureResult> {
    const missing = await ctx.fixtures.gatewayMissing();
    if (missing !== undefined) return notMeasured('bft4_ratio_vs_verify_limit', 'tx/s', GOAL, missing);
    // Measured before the network starts when this figure runs first (an idle network otherwise).
    const ed = await ctx.fixtures.ed25519();
    const peak = await ctx.fixtures.bftPeak();
    const limit = ed.perSecond / BFT_VALIDATORS;
    const ratio = ratioOf(peak.txPerS, limit);
    return {
      id: 'bft4_ratio_vs_verify_limit',
      value: peak.txPerS,
      unit: 'tx/s',
      baseline: `Ed25519 verify/s on all cores / ${BFT_VALIDATORS} (same run)`,
      baseline_value: limit,
      ratio,
      goal: GOAL,
      met: ratio !== null && ratio >= RATIO_GOAL,
      note: `${BFT_NETWORK_NOTE}; the value is bft4_committed_tx_per_s's measurement`,
      extra: {
        ed25519_verify_per_s: ed.perSecond,
        ed25519_threads: ed.threads,
        committed_at_every_peer: peak.committed,
        seconds: peak.seconds,
      },
    };
  },
};
