// Consensus round routes: leader, pacemaker, parameters, collectors,
// phase latencies, vote telemetry and the reliable-broadcast (RBC) counters.

import type { Codec } from '../../codec/codec.js';
import { planSeed } from '../../consensus/bft/plan.js';
import type { ConsensusSnapshot, PhaseTimings } from '../../consensus/engine.js';
import { toHex } from '../../util/hex.js';
import type { RouteDeps } from '../deps.js';
import { defineRoute, type RouteDef, type Visibility } from '../route-table.js';
import { respond, viewSchema } from '../view.js';
import {
  CollectorsView,
  LeaderView,
  PacemakerView,
  ParamsView,
  PhasesView,
  RbcSessionsView,
  RbcView,
  TelemetryView,
} from '../views/consensus.js';
import { JSON_OR_CODEC, micros, TAGS as tags } from './consensus-shared.js';

function phases(p: PhaseTimings | undefined) {
  if (p === undefined) return undefined;
  return {
    proposeUs: micros(p.proposeMs),
    collectVotesUs: micros(p.collectVotesMs),
    commitUs: micros(p.commitMs),
    totalUs: micros(p.totalMs),
  };
}

function leaderPeer(snap: ConsensusSnapshot): string {
  return snap.validatorSet.validators[snap.leaderIndex]!.peer;
}

function pacemaker(d: RouteDeps) {
  const snap = d.ports.consensus.snapshot();
  const started = snap.roundStartedAtMs;
  const elapsed = started === undefined ? 0 : Math.max(0, Math.floor(d.ports.node.nowMs() - started));
  const p = snap.round?.pacemaker;
  if (p !== undefined) {
    // BFT: the view timeout of the current view as the pacemaker computes it (bft/pacemaker.ts).
    const timeout = Math.round(p.timeoutTargetMs + p.jitterMs);
    return {
      backoffMs: Math.round(p.timeoutTargetMs),
      rttFloorMs: Math.round(p.rttFloorMs),
      jitterMs: p.jitterMs,
      backoffMultiplier: p.backoffMultiplier,
      rttFloorMultiplier: p.rttFloorMultiplier,
      maxBackoffMs: p.maxBackoffMs,
      jitterFracPermille: p.jitterPermille,
      roundInProgress: started !== undefined,
      roundElapsedMs: elapsed,
      viewTimeoutTargetMs: timeout,
      viewTimeoutRemainingMs: Math.max(0, timeout - elapsed),
    };
  }
  const target = d.ports.consensus.settings().commitTimeMs;
  // Single-peer mode never times out a view: no backoff growth, no round-trip floor, no jitter. The view
  // timeout target is the time a proposal has to gather its certificate (config block.commit_time_ms).
  return {
    backoffMs: 0,
    rttFloorMs: 0,
    jitterMs: 0,
    backoffMultiplier: 1,
    rttFloorMultiplier: 1,
    maxBackoffMs: target,
    jitterFracPermille: 0,
    roundInProgress: started !== undefined,
    roundElapsedMs: elapsed,
    viewTimeoutTargetMs: target,
    viewTimeoutRemainingMs: Math.max(0, target - elapsed),
  };
}

function collectors(d: RouteDeps) {
  const snap = d.ports.consensus.snapshot();
  const { collectorsK: k, collectorsR: r } = d.ports.consensus.settings();
  const set = snap.validatorSet;
  // BFT: the k plan slots from the leader's on (bft/plan.ts); single peer: the one validator.
  const indexes =
    snap.round?.collectors ??
    Array.from({ length: Math.min(k, set.size) }, (_, i) => (snap.leaderIndex + i) % set.size);
  const list = indexes.map((index) => ({ index, peerId: set.validators[index]!.peer }));
  return {
    mode: snap.mode,
    rosterSize: set.size,
    votesNeeded: set.quorum,
    height: snap.height + 1,
    view: snap.view,
    k,
    r,
    collectors: list,
  };
}

function voteTelemetry(d: RouteDeps) {
  const snap = d.ports.consensus.snapshot();
  const r = snap.round;
  // BFT: what this peer received and formed as a collector (an observer collects nothing). Single peer:
  // one vote per block reaches the single collector, and each makes one certificate (since node start).
  const intake =
    r === undefined
      ? {
          index: snap.leaderIndex,
          peerId: leaderPeer(snap),
          votesReceived: snap.blocksProduced,
          qcsFormed: snap.blocksProduced,
        }
      : r.selfIndex < 0
        ? undefined
        : {
            index: r.selfIndex,
            peerId: snap.validatorSet.validators[r.selfIndex]!.peer,
            votesReceived: r.votesReceived,
            qcsFormed: r.qcsFormed,
          };
  const last = snap.lastPhases?.collectVotesMs;
  const avg = snap.averagePhases?.collectVotesMs;
  return {
    voteIntake: intake === undefined ? [] : [intake],
    ...(last === undefined ? {} : { qcLatencyLastUs: micros(last) }),
    ...(avg === undefined ? {} : { qcLatencyAverageUs: micros(avg) }),
  };
}

export function roundRoutes(d: RouteDeps): RouteDef[] {
  const get = <T>(
    url: string,
    operationId: string,
    summary: string,
    visibility: Visibility,
    view: Codec<T>,
    value: () => T,
  ) =>
    defineRoute({
      method: 'GET',
      url,
      operationId,
      summary,
      tags,
      visibility,
      formats: JSON_OR_CODEC,
      schema: { response: { 200: viewSchema(view) } },
      handler: (req, reply) => respond(d.schema, req, reply, view, value()),
    });
  const snap = () => d.ports.consensus.snapshot();
  return [
    get(
      '/v1/consensus/leader',
      'getConsensusLeader',
      'Leader of the height being decided',
      'developer',
      LeaderView,
      () => {
        const s = snap();
        const height = s.height + 1;
        // The seed the BFT plan shuffles the roster of this height with (consensus/bft/plan.ts).
        const seed = toHex(planSeed(d.ports.node.chainId, height));
        return {
          leaderIndex: s.leaderIndex,
          leaderPeerId: leaderPeer(s),
          prf: { height, view: s.view, seed },
        };
      },
    ),
    get(
      '/v1/consensus/pacemaker',
      'getConsensusPacemaker',
      'Pacemaker status',
      'developer',
      PacemakerView,
      () => pacemaker(d),
    ),
    get(
      '/v1/consensus/params',
      'getConsensusParams',
      'On-chain consensus parameters',
      'developer',
      ParamsView,
      () => {
        const p = d.ports.state.parameters();
        const s = d.ports.consensus.settings();
        return {
          blockTimeMs: p.blockTimeMs,
          commitTimeMs: p.commitTimeMs,
          maxClockDriftMs: p.maxClockDriftMs,
          collectorsK: s.collectorsK,
          redundantSendR: s.collectorsR,
          dataAvailability: false,
          chainHeight: d.ports.chain.height(),
        };
      },
    ),
    get(
      '/v1/consensus/collectors',
      'getConsensusCollectors',
      'Collector plan',
      'public',
      CollectorsView,
      () => collectors(d),
    ),
    get(
      '/v1/consensus/phases',
      'getConsensusPhases',
      'Per-phase latency (µs)',
      'developer',
      PhasesView,
      () => {
        const s = snap();
        const last = phases(s.lastPhases);
        const average = phases(s.averagePhases);
        // Rounds measured (an observer measures none): no samples, no average.
        return {
          samples: s.phaseSamples,
          ...(last === undefined ? {} : { last }),
          ...(average === undefined ? {} : { average }),
        };
      },
    ),
    get(
      '/v1/consensus/telemetry',
      'getConsensusTelemetry',
      'Vote intake and QC latency',
      'status',
      TelemetryView,
      () => voteTelemetry(d),
    ),
    // This node does not run reliable payload broadcast (last bullet).
    get(
      '/v1/consensus/rbc',
      'getConsensusRbc',
      'RBC counters (disabled on this node)',
      'developer',
      RbcView,
      () => ({
        enabled: false,
        sessionsActive: 0,
        sessionsCompleted: 0,
        chunksSent: 0,
        chunksReceived: 0,
        readyMessages: 0,
        deliverMessages: 0,
        payloadBytes: 0,
      }),
    ),
    get(
      '/v1/consensus/rbc/sessions',
      'getConsensusRbcSessions',
      'Active RBC sessions',
      'developer',
      RbcSessionsView,
      () => ({
        enabled: false,
        items: [],
      }),
    ),
  ];
}
