// Answer types of the common routes (§3).

import { named, option, seq, struct } from '../../codec/compound.js';
import { bool, jsonValue, string, u32, varint, varuint } from '../../codec/primitives.js';
import { Hash, PublicKeyText } from '../../model/keys.js';
import { ReceiptCodec } from '../../model/receipt.js';

export const HealthView = struct('Health', { status: string(16) });

export const ApiVersionView = struct('ApiVersion', { version: string(16) });
export const ApiVersionsView = struct('ApiVersions', {
  default: string(16),
  supported: seq(string(16)),
  sunsetUnix: option(varuint),
});

export const UptimeView = struct('Uptime', { secs: varuint, nanos: u32 });

export const StatusConsensusView = struct('StatusConsensus', {
  mode: string(32),
  height: varuint,
  view: varuint,
  leaderIndex: varuint,
  validators: varuint,
});

export const StatusView = struct('Status', {
  peers: varuint,
  blocks: varuint,
  blocksNonEmpty: varuint,
  commitTimeMs: varuint,
  txsApproved: varuint,
  txsRejected: varuint,
  txsExpired: varuint,
  uptime: UptimeView,
  viewChanges: varuint,
  queueSize: varuint,
  queueCapacity: varuint,
  stateRoot: Hash,
  consensus: StatusConsensusView,
  // Added after the fields above (clients read those): who this node is and whether it can commit.
  chainId: string(64),
  /** This node's public key (its peer id). */
  nodeId: string(128),
  /** `validator`, `observer` (a networked node that never votes) or `single` (a lone validator). */
  role: string(16),
  /** `torana/<package version>`. */
  version: string(64),
  latestBlockHeight: varuint,
  /** Hash of the newest block (all zeros before block 1). */
  latestBlockHash: Hash,
  /** Creation time of the newest block, Unix ms (0 before block 1). */
  latestBlockTimeMs: varuint,
  /** Fetching blocks from a peer that is ahead (block sync in progress). */
  catchingUp: bool,
  /** Validators of the current set this node has a live session with, itself included. */
  validatorsReachable: varuint,
  validatorsTotal: varuint,
  /** Signatures a block needs (2f+1; every validator when there are at most 3). */
  quorumNeeded: varuint,
  /** validatorsReachable >= quorumNeeded: without it no block can commit. */
  quorumReachable: bool,
});

export const CapabilitiesView = struct('Capabilities', {
  abiVersion: varuint,
  dataModelVersion: varuint,
  codecVersion: varuint,
  chainId: string(64),
  crypto: struct('CapabilitiesCrypto', {
    defaultHash: string(32),
    signingAlgorithms: seq(string(32)),
    consensusSignature: string(32),
  }),
  query: struct('CapabilitiesQuery', {
    aggregate: struct('CapabilitiesAggregate', { supportedResources: seq(string(64)) }),
    fetchSizeMax: varuint,
  }),
  features: seq(string(64)),
});

export const TimeHealthView = struct('TimeHealth', {
  healthy: bool,
  minSamplesOk: bool,
  offsetOk: bool,
  confidenceOk: bool,
});

export const TimeNowView = struct('TimeNow', {
  now: varuint,
  offsetMs: varint,
  confidenceMs: varuint,
  sampleCount: varuint,
  peerCount: varuint,
  fallback: bool,
  health: TimeHealthView,
});

export const TimeStatusView = struct('TimeStatus', {
  peers: varuint,
  samplesUsed: varuint,
  offsetMs: varint,
  confidenceMs: varuint,
  fallback: bool,
  health: TimeHealthView,
  samples: seq(
    struct('TimeSample', { peer: PublicKeyText, lastOffsetMs: varint, lastRttMs: varuint, count: varuint }),
  ),
  rttHistogram: seq(struct('RttBucket', { leMs: varuint, count: varuint })),
});

export const PeersView = named('Peers', seq(string(512)));

export const SchemaView = struct('SchemaSnapshot', { version: varuint, types: jsonValue(4 * 1024 * 1024) });

export const QueueStateView = struct('QueueState', { depth: varuint, capacity: varuint });

export const TransactionAcceptedView = struct('TransactionAccepted', {
  txHash: Hash,
  status: string(16),
  receipt: ReceiptCodec,
  queue: QueueStateView,
});

/** The wire form of every error answer (JSON, or the codec when the client prefers it). */
export const ErrorBodyView = struct('ErrorBody', {
  code: string(64),
  message: string(1024),
  details: jsonValue(64 * 1024),
});
export const ErrorBodyCodec = ErrorBodyView;
