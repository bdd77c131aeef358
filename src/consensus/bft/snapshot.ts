// The consensus routes' view of the BFT engine: the core's report and counters, mapped onto the snapshot
// both engines share (engine.ts). Phase timings are the core's measurements; averages are an exponential
// moving average with weight 1/8, as in the single-peer engine.

import type { CommitCertificate } from '../../model/block.js';
import { assert } from '../../util/assert.js';
import type { Clock } from '../../util/clock.js';
import { toHex } from '../../util/hex.js';
import type { ConsensusSnapshot, PhaseTimings, QcSummary } from '../engine.js';
import type { BftCore } from './core.js';
import type { Qc } from './types.js';

function summary(qc: Qc | undefined): QcSummary | undefined {
  return qc && { height: qc.height, view: qc.view, subjectBlockHash: toHex(qc.blockHash) };
}

export class PhaseAverages {
  private avg: PhaseTimings | undefined;
  private seen: PhaseTimings | undefined;

  update(last: PhaseTimings | undefined): PhaseTimings | undefined {
    if (last === undefined || last === this.seen) return this.avg;
    this.seen = last;
    const a = this.avg;
    const ema = (old: number, x: number) => old + (x - old) / 8;
    this.avg =
      a === undefined
        ? { ...last }
        : {
            proposeMs: ema(a.proposeMs, last.proposeMs),
            collectVotesMs: ema(a.collectVotesMs, last.collectVotesMs),
            commitMs: ema(a.commitMs, last.commitMs),
            totalMs: ema(a.totalMs, last.totalMs),
          };
    // Averages of phase timings, each measured from the start of its view: never negative.
    const avg = this.avg;
    assert(
      avg.proposeMs >= 0 && avg.collectVotesMs >= 0 && avg.commitMs >= 0 && avg.totalMs >= 0,
      `phase averages ${avg.proposeMs}/${avg.collectVotesMs}/${avg.commitMs}/${avg.totalMs} ms`,
    );
    return avg;
  }
}

export function snapshotOf(
  core: BftCore,
  committedHeight: number,
  recent: readonly CommitCertificate[],
  history: { height: number; set: NonNullable<ReturnType<BftCore['report']>['roster']> }[],
  clock: Clock,
  averages: PhaseAverages,
  collectorsK: number,
): ConsensusSnapshot {
  const r = core.report();
  const s = core.stats;
  const t = r.timeout;
  const started = r.roundStartedAtMs;
  return {
    mode: 'bft',
    height: committedHeight,
    view: r.view,
    epoch: 0,
    leaderIndex: r.leaderIndex,
    validatorSet: r.roster!,
    validatorSetHistory: history,
    highestQc: summary(r.highQc) ?? summary(recent[0]),
    lockedQc: summary(r.lockedQc) ?? summary(recent[0]),
    lastCertificate: recent[0],
    recentCertificates: [...recent],
    viewChanges: s.viewChanges,
    viewChangeCauses: { ...s.causes },
    lastPhases: s.lastPhases,
    averagePhases: s.phaseSamples === 0 ? undefined : averages.update(s.lastPhases),
    phaseSamples: s.phaseSamples,
    catchingUp: false,
    roundStartedAtMs: started === undefined ? undefined : clock.nowMs() - (clock.monotonicMs() - started),
    blocksProduced: s.proposals,
    round: {
      pacemaker: {
        timeoutTargetMs: t?.targetMs ?? 0,
        backoffMultiplier: r.pacemaker.multiplierPermille / 1000,
        maxBackoffMs: r.pacemaker.maxMs,
        rttMs: r.rttMs,
        rttFloorMultiplier: r.pacemaker.rttFloorMultiplier,
        rttFloorMs: t?.floorMs ?? 0,
        jitterMs: t?.jitterMs ?? 0,
        jitterPermille: r.pacemaker.jitterPermille,
      },
      collectors: r.collectors,
      collectorsK,
      votesReceived: s.votesReceived,
      qcsFormed: s.qcsFormed,
      commitVotes: r.commitVotes,
      selfIndex: r.selfIndex,
      proposals: s.proposals,
      votesSent: s.votesSent,
      rejectedMessages: s.rejectedMessages,
      farMessages: s.farMessages,
    },
  };
}
