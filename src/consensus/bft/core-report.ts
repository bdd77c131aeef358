// What the core tells the consensus routes: every field read from its state, nothing invented.

import type { ValidatorSet } from '../validator-set.js';
import type { HeightState } from './height-state.js';
import { type Timeout, viewTimeout } from './pacemaker.js';
import type { BftOptions, PacemakerOptions, Qc } from './types.js';

export interface CoreReport {
  height: number;
  view: number;
  /** Roster index of this peer, -1 for an observer. */
  selfIndex: number;
  roster: ValidatorSet | undefined;
  leaderIndex: number;
  collectors: number[];
  highQc: Qc | undefined;
  lockedQc: Qc | undefined;
  commitQc: Qc | undefined;
  /** Commit votes seen for the current view's Prepare QC block (collectors only count what they receive). */
  commitVotes: number;
  timeout: Timeout | undefined;
  rttMs: number;
  roundStartedAtMs: number | undefined;
  nowMs: number;
  newViewsReceived: number;
  pacemaker: PacemakerOptions;
}

export function reportOf(
  hs: HeightState | undefined,
  s: {
    view: number;
    me: number;
    lockedQc: Qc | undefined;
    highQc: Qc | undefined;
    rttMs: number;
    roundMs: number;
    nowMs: number;
    options: BftOptions;
  },
): CoreReport {
  const prepared = hs?.prepareQcs.get(s.view);
  return {
    height: hs?.height ?? 0,
    view: s.view,
    selfIndex: s.me,
    roster: hs?.roster,
    leaderIndex: hs === undefined ? -1 : hs.plan.leader(s.view),
    collectors: hs === undefined ? [] : hs.plan.collectors(s.view, s.options.collectorsK),
    highQc: s.highQc,
    lockedQc: s.lockedQc,
    commitQc: hs?.commitQc,
    commitVotes:
      hs === undefined || prepared === undefined ? 0 : hs.votes.tally(s.view, 'Commit', prepared.blockHash),
    timeout:
      hs === undefined
        ? undefined
        : viewTimeout(s.options.pacemaker, hs.height, s.view, Math.max(0, s.me), s.rttMs, s.roundMs),
    rttMs: s.rttMs,
    // A round is in progress once the height has work (its view timer is armed) or a proposal arrived.
    roundStartedAtMs:
      hs !== undefined && (hs.timerView >= 0 || hs.proposals.size > 0) ? hs.startedAtMs : undefined,
    nowMs: s.nowMs,
    newViewsReceived: hs?.newViews.size ?? 0,
    pacemaker: s.options.pacemaker,
  };
}
