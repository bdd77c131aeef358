// Answer types of the ISO 20022 bridge routes (README of src/modules/iso20022/bridge).
// The record is the bridge's own stored codec type; the submission answer and
// the audit page are defined here once, for JSON and the codec alike.

import { named, option, seq, struct } from '../../../codec/compound.js';
import { string, varuint } from '../../../codec/primitives.js';
import { Hash } from '../../../model/keys.js';
import { AuditAnchorCodec } from '../bridge/audit.js';
import { BridgeRecordCodec, MESSAGE_ID_BYTES_MAX, RecordTransferCodec } from '../bridge/record.js';

export const Iso20022RecordView = named('Iso20022Record', BridgeRecordCodec);

/** The 202 answer of every POST /v1/iso20022/* route (interface rule 2). */
export const Iso20022SubmissionView = struct('Iso20022Submission', {
  messageId: string(MESSAGE_ID_BYTES_MAX),
  kind: string(16),
  /** Absent for messages without ledger effect (status reports, cancellation requests). */
  transactionHash: option(Hash),
  /** Pending | Accepted | Rejected. */
  status: string(16),
  pacs002Code: string(4),
  resolution: option(string(4)),
  reasonCode: option(string(8)),
  reasonProprietary: option(string(64)),
  ledgerId: string(64),
  sourceAccountId: option(string(512)),
  targetAccountId: option(string(512)),
  assetDefinitionId: option(string(512)),
  transfers: seq(RecordTransferCodec),
  originalMessageId: option(string(MESSAGE_ID_BYTES_MAX)),
});

const AuditPageEntryView = struct('Iso20022AuditPageEntry', {
  seq: varuint,
  timeMs: varuint,
  messageId: string(MESSAGE_ID_BYTES_MAX),
  event: string(32),
  status: string(8),
  recordHash: Hash,
  prevHash: Hash,
  hash: Hash,
  anchorIndex: option(varuint),
  proof: seq(Hash, 64),
});

export const Iso20022AuditPageView = struct('Iso20022AuditPage', {
  total: varuint,
  chainHead: struct('Iso20022ChainHead', { seq: varuint, hash: Hash }),
  prevHash: Hash,
  entries: seq(AuditPageEntryView),
  anchors: seq(AuditAnchorCodec),
  pendingAnchor: option(AuditAnchorCodec),
  /** Where anchors live on the ledger: this account's metadata under `metadataKey`. */
  bridgeAccount: string(512),
  metadataKey: string(64),
});
