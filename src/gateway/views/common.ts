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
