// Answer types of the consensus routes.
// Durations measured by the engine are whole microseconds (`…Us`);
// configured durations are milliseconds (`…Ms`).

import { map, option, seq, struct } from '../../codec/compound.js';
import { bool, bytes, fixedBytes, string, varuint } from '../../codec/primitives.js';
import { EvidenceCodec } from '../../consensus/evidence.js';
import { ValidatorCodec } from '../../consensus/validator-set.js';
import { CertificatePhaseCodec, CommitCertificateCodec } from '../../model/block.js';
import { PeerId } from '../../model/ids.js';
import { Hash, PublicKeyText } from '../../model/keys.js';

export const QcSummaryView = struct('ConsensusQcSummary', {
  height: varuint,
  view: varuint,
  subjectBlockHash: Hash,
});

export const ConsensusStatusView = struct('ConsensusStatus', {
  mode: string(32),
  height: varuint,
  view: varuint,
  epoch: varuint,
  /** Effective block time and commit time of this node (config `block.time_ms`, `block.commit_time_ms`). */
  blockTimeMs: varuint,
  commitTimeMs: varuint,
  collectorsK: varuint,
  collectorsR: varuint,
  leaderIndex: varuint,
  /** The view-change index of the current height (= its view). */
  viewChangeIndex: varuint,
  viewChanges: varuint,
  viewChangeCauses: map(string(64), varuint),
  highestQc: option(QcSummaryView),
  lockedQc: option(QcSummaryView),
  commitQc: option(
    struct('ConsensusCommitQcSummary', {
      height: varuint,
      view: varuint,
      epoch: varuint,
      blockHash: Hash,
      validatorSetHash: Hash,
      validatorSetLen: varuint,
      signaturesTotal: varuint,
    }),
  ),
  commitQuorum: option(
    struct('ConsensusCommitQuorum', {
      height: varuint,
      view: varuint,
      blockHash: Hash,
      signaturesPresent: varuint,
      signaturesCounted: varuint,
      signaturesRequired: varuint,
    }),
  ),
  txQueue: struct('ConsensusTxQueue', { depth: varuint, capacity: varuint, saturated: bool }),
  blocksProduced: varuint,
  /** The peers this node is configured with and their live state (empty for a lone node). */
  peers: seq(
    struct('ConsensusPeer', {
      peerId: PeerId,
      address: string(300),
      role: string(16),
      connected: bool,
      lastSeenMs: varuint,
    }),
  ),
});

export const QcView = struct('ConsensusQc', {
  highestQc: option(QcSummaryView),
  lockedQc: option(QcSummaryView),
});

/** A certificate as the chain stores it, with the height and validator-set size that locate it. */
export const CommitQcRecordView = struct('ConsensusCommitQcRecord', {
  height: varuint,
  blockHash: Hash,
  validatorSetLen: varuint,
  signaturesTotal: varuint,
  certificate: CommitCertificateCodec,
});

const CertificateSummaryView = struct('ConsensusCertificateSummary', {
  phase: CertificatePhaseCodec,
  height: varuint,
  view: varuint,
  epoch: varuint,
  blockHash: Hash,
  validatorSetHash: Hash,
  signaturesTotal: varuint,
  signers: bytes(1024),
  signature: fixedBytes(96),
});

export const CommitCertificatesView = struct('ConsensusCommitCertificates', {
  items: seq(CertificateSummaryView),
});

export const CheckpointsView = struct('ConsensusCheckpoints', {
  /** Newest first: compact copies of recent commit certificates, used to verify block sync. */
  items: seq(CertificateSummaryView),
});

export const ValidatorSetEntryView = struct('ConsensusValidatorSetEntry', {
  height: varuint,
  blockHash: Hash,
  validatorSetHash: Hash,
  validatorSet: seq(ValidatorCodec),
});

export const ValidatorSetsView = struct('ConsensusValidatorSets', { items: seq(ValidatorSetEntryView) });

export const LeaderView = struct('ConsensusLeader', {
  leaderIndex: varuint,
  leaderPeerId: PeerId,
  prf: struct('ConsensusLeaderPrf', { height: varuint, view: varuint, seed: Hash }),
});

const ConsensusKeyView = struct('ConsensusKey', {
  index: varuint,
  peerId: PeerId,
  algorithm: string(32),
  publicKey: PublicKeyText,
  activeFromHeight: varuint,
});
export const ConsensusKeysView = struct('ConsensusKeys', { items: seq(ConsensusKeyView) });

export const BlsKeysView = struct('ConsensusBlsKeys', {
  items: seq(struct('ConsensusBlsKey', { peerId: PeerId, blsKey: PublicKeyText, activeFromHeight: varuint })),
});

export const KeyLifecycleView = struct('ConsensusKeyLifecycle', {
  items: seq(
    struct('ConsensusKeyLifecycleEntry', {
      peerId: PeerId,
      blsKey: PublicKeyText,
      status: string(16),
      registeredHeight: varuint,
      activeFromHeight: varuint,
      disabledHeight: option(varuint),
    }),
  ),
});

const PhaseTimingsView = struct('ConsensusPhaseTimings', {
  proposeUs: varuint,
  collectVotesUs: varuint,
  commitUs: varuint,
  totalUs: varuint,
});

export const PhasesView = struct('ConsensusPhases', {
  /** Rounds measured since the node started; the moving average weighs each new round 1/8. */
  samples: varuint,
  last: option(PhaseTimingsView),
  average: option(PhaseTimingsView),
});

export const PacemakerView = struct('ConsensusPacemaker', {
  backoffMs: varuint,
  rttFloorMs: varuint,
  jitterMs: varuint,
  backoffMultiplier: varuint,
  rttFloorMultiplier: varuint,
  maxBackoffMs: varuint,
  jitterFracPermille: varuint,
  roundInProgress: bool,
  roundElapsedMs: varuint,
  viewTimeoutTargetMs: varuint,
  viewTimeoutRemainingMs: varuint,
});

export const ParamsView = struct('ConsensusParams', {
  blockTimeMs: varuint,
  commitTimeMs: varuint,
  maxClockDriftMs: varuint,
  collectorsK: varuint,
  redundantSendR: varuint,
  dataAvailability: bool,
  chainHeight: varuint,
});

export const CollectorsView = struct('ConsensusCollectors', {
  mode: string(32),
  rosterSize: varuint,
  votesNeeded: varuint,
  height: varuint,
  view: varuint,
  k: varuint,
  r: varuint,
  collectors: seq(struct('ConsensusCollector', { index: varuint, peerId: PeerId })),
});

export const TelemetryView = struct('ConsensusTelemetry', {
  voteIntake: seq(
    struct('ConsensusVoteIntake', {
      index: varuint,
      peerId: PeerId,
      votesReceived: varuint,
      qcsFormed: varuint,
    }),
  ),
  qcLatencyLastUs: option(varuint),
  qcLatencyAverageUs: option(varuint),
});

export const RbcView = struct('ConsensusRbc', {
  enabled: bool,
  sessionsActive: varuint,
  sessionsCompleted: varuint,
  chunksSent: varuint,
  chunksReceived: varuint,
  readyMessages: varuint,
  deliverMessages: varuint,
  payloadBytes: varuint,
});

export const RbcSessionsView = struct('ConsensusRbcSessions', {
  enabled: bool,
  items: seq(
    struct('ConsensusRbcSession', {
      height: varuint,
      view: varuint,
      blockHash: Hash,
      chunksTotal: varuint,
      chunksReceived: varuint,
      readyCount: varuint,
      deliverCount: varuint,
    }),
  ),
});

export const EvidenceRecordView = struct('ConsensusEvidenceRecord', {
  id: Hash,
  kind: string(32),
  finding: string(64),
  recordedAtMs: varuint,
  recordedAtHeight: varuint,
  evidence: EvidenceCodec,
});

export const EvidenceListView = struct('ConsensusEvidenceList', {
  total: varuint,
  items: seq(EvidenceRecordView),
});

export const EvidenceCountView = struct('ConsensusEvidenceCount', { count: varuint });

export const EvidenceSubmittedView = struct('ConsensusEvidenceSubmitted', {
  status: string(16),
  kind: string(32),
  id: Hash,
});
