// The phases of a committed height as a validator saw them (input times), measured from the start of
// the view that produced the block: a view change never makes a phase negative.

import type { PhaseTimings } from '../engine.js';
import type { HeightState } from './height-state.js';
import { invariant } from './types.js';

/**
 * Phases of the block `hs` committed in `view`, at `nowMs`: from its view's start to its proposal, to its
 * commit certificate, to now. A certificate whose proposal this peer never saw (it came as a QC only) is
 * measured from the current view's start; each boundary is kept between its neighbours.
 */
export function phasesOf(hs: HeightState, view: number, nowMs: number): PhaseTimings {
  const certifiedAt = hs.commitQcAtMs;
  invariant(
    certifiedAt !== undefined && certifiedAt <= nowMs,
    `height ${hs.height}: committed at ${nowMs} with a certificate taken at ${certifiedAt}`,
  );
  const p = hs.proposals.get(view);
  const start = Math.min(p?.viewStartedAtMs ?? hs.startedAtMs, certifiedAt);
  const proposedAt = Math.min(Math.max(p?.atMs ?? start, start), certifiedAt);
  return {
    proposeMs: proposedAt - start,
    collectVotesMs: certifiedAt - proposedAt,
    commitMs: nowMs - certifiedAt,
    totalMs: nowMs - start,
  };
}
