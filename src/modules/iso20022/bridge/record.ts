// The durable record of one bridge message (Pending → Accepted | Rejected, with pacs.002 codes ACTC → ACSP → ACSC or RJCT).
//
// One codec type is the stored form, the hashed form (the audit chain commits to hash(encode(record)))
// and the answer of GET /v1/iso20022/messages/{msg_id} (JSON or codec).

import type { Infer } from '../../../codec/codec.js';
import { option, seq, struct } from '../../../codec/compound.js';
import { encode } from '../../../codec/frame.js';
import { jsonValue, string, varuint } from '../../../codec/primitives.js';
import { hash } from '../../../crypto/hash.js';
import { Hash } from '../../../model/keys.js';
import { NumericCodec } from '../../../model/numeric.js';

/** Longest message id kept (ISO ids are Max35Text; derived ids are longer but bounded). */
export const MESSAGE_ID_BYTES_MAX = 256;
/** ISO transactions per message the bridge maps (each becomes one or two ledger instructions). */
export const RECORD_TRANSACTIONS_MAX = 1000;
/** Ledger transfers per message (a DvP has two per instruction). */
export const RECORD_TRANSFERS_MAX = 2000;
/** Messages linked to one record (returns, cancellations, status reports); more are refused (422). */
export const RECORD_LINKS_MAX = 256;
/** Message-specific facts kept for the XML reports (securities details, assignment, statuses). */
export const RECORD_INFO_BYTES_MAX = 16 * 1024;

const Id = string(MESSAGE_ID_BYTES_MAX);
const Text = string(512);

/** One ledger transfer a message causes; `transactionIndex` is the ISO transaction it belongs to. */
export const RecordTransferCodec = struct('Iso20022Transfer', {
  leg: string(32),
  transactionIndex: varuint,
  source: Text,
  destination: Text,
  assetDefinition: Text,
  amount: NumericCodec,
});
export type RecordTransfer = Infer<typeof RecordTransferCodec>;

/** The ISO references and amount of one transaction of the message (for pacs.002/004, camt.029). */
export const RecordTransactionCodec = struct('Iso20022Transaction', {
  instructionId: option(Text),
  endToEndId: option(Text),
  transactionId: option(Text),
  uetr: option(Text),
  /** In the currency's minor units (IsoAmount: mantissa and scale). */
  amount: option(NumericCodec),
  currency: option(string(3)),
  settlementDate: option(string(16)),
  debtorBic: option(string(11)),
  creditorBic: option(string(11)),
  /** Sum returned so far by pacs.004 messages (same currency and scale as `amount`). */
  returned: option(NumericCodec),
});
export type RecordTransaction = Infer<typeof RecordTransactionCodec>;

export const RecordLinkCodec = struct('Iso20022Link', { kind: string(16), messageId: Id });
export type RecordLink = Infer<typeof RecordLinkCodec>;

export const BridgeRecordCodec = struct('Iso20022Record', {
  messageId: Id,
  /** The route it came in by: pacs008, pacs009, pacs002, pacs004, camt056, sese023, sese024, sese025, colr012. */
  kind: string(16),
  messageDefinitionId: string(32),
  creationTime: option(string(64)),
  receivedAtMs: varuint,
  updatedAtMs: varuint,
  /** Pending | Accepted | Rejected: the record's state. */
  status: string(16),
  /** ACTC | ACSP | ACSC | RJCT (pacs.002 ExternalPaymentTransactionStatus1Code). */
  pacs002Code: string(4),
  /** camt.056 only: PECR | CNCL | RJCR (camt.029 Sts/Conf). */
  resolution: option(string(4)),
  reasonCode: option(string(8)),
  reasonProprietary: option(string(64)),
  reasonText: option(string(1024)),
  ledgerId: string(64),
  transactionHash: option(Hash),
  blockHeight: option(varuint),
  settledAtMs: option(varuint),
  originalMessageId: option(Id),
  transfers: seq(RecordTransferCodec, RECORD_TRANSFERS_MAX),
  transactions: seq(RecordTransactionCodec, RECORD_TRANSACTIONS_MAX),
  links: seq(RecordLinkCodec, RECORD_LINKS_MAX),
  info: jsonValue(RECORD_INFO_BYTES_MAX),
});
export type BridgeRecord = Infer<typeof BridgeRecordCodec>;

/** A submission's answer: the message's record, and whether it was a resubmission answered from it. */
export interface Submitted {
  readonly record: BridgeRecord;
  readonly replayed: boolean;
}

export type RecordState = 'Pending' | 'Accepted' | 'Rejected';
export type Pacs002Code = 'ACTC' | 'ACSP' | 'ACSC' | 'RJCT';
export type Resolution = 'PECR' | 'CNCL' | 'RJCR';

export function recordHash(r: BridgeRecord): Uint8Array {
  return hash(encode(BridgeRecordCodec, r));
}

/** Final records never change status again (a later event for them is ignored). */
export function isFinal(r: BridgeRecord): boolean {
  return r.status !== 'Pending';
}

/** A record whose signed transaction may still need to reach the ledger. */
export function awaitsLedger(r: BridgeRecord): boolean {
  return r.status === 'Pending' && r.transactionHash !== undefined && r.resolution === undefined;
}

/** The first transfer's context, as the 202 answer reports it. */
export function primaryContext(r: BridgeRecord) {
  const t = r.transfers[0];
  return {
    ledgerId: r.ledgerId,
    sourceAccountId: t?.source,
    targetAccountId: t?.destination,
    assetDefinitionId: t?.assetDefinition,
  };
}

/** A record's info object (always a JSON object by construction). */
export function infoOf(r: BridgeRecord): Record<string, unknown> {
  return typeof r.info === 'object' && r.info !== null && !Array.isArray(r.info)
    ? (r.info as Record<string, unknown>)
    : {};
}
