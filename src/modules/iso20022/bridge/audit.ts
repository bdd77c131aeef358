// The audit manifest (README "Audit manifest"): a hash chain over every bridge message and status change,
// with Merkle roots of consecutive entry ranges anchored in the ledger. Anyone holding the entries can
// recompute each entry hash, check each `prev_hash` link, recompute an anchored range's root (or check one
// entry's inclusion proof, merkle.ts) and compare it with the `iso20022_audit` metadata the bridge account
// wrote in the anchoring block. A changed, dropped or reordered entry breaks the chain or the root.

import type { Infer } from '../../../codec/codec.js';
import { option, struct } from '../../../codec/compound.js';
import { encode } from '../../../codec/frame.js';
import { string, varuint } from '../../../codec/primitives.js';
import { hash } from '../../../crypto/hash.js';
import { Hash } from '../../../model/keys.js';
import { fromHex, toHex } from '../../../util/hex.js';
import { merkleRoot } from './merkle.js';
import { MESSAGE_ID_BYTES_MAX } from './record.js';

/** `prev_hash` of entry 1. */
export const AUDIT_GENESIS_HASH = toHex(new Uint8Array(32));
/** Most entries one anchor covers; a busier block is anchored over several blocks. */
export const AUDIT_ANCHOR_ENTRIES_MAX = 4096;
/** The bridge account metadata key an anchor writes (SetKeyValue). */
export const AUDIT_METADATA_KEY = 'iso20022_audit';

export const AuditEntryCodec = struct('Iso20022AuditEntry', {
  seq: varuint,
  timeMs: varuint,
  messageId: string(MESSAGE_ID_BYTES_MAX),
  /** received | queued | settled | rejected | linked | cancellation_pending | cancelled | … */
  event: string(32),
  /** The record's pacs.002 code, or its camt.029 resolution for cancellation requests. */
  status: string(8),
  recordHash: Hash,
  prevHash: Hash,
});
export type AuditEntry = Infer<typeof AuditEntryCodec>;

export const AuditAnchorCodec = struct('Iso20022AuditAnchor', {
  index: varuint,
  fromSeq: varuint,
  toSeq: varuint,
  /** MTH over the entry hashes fromSeq..toSeq (merkle.ts). */
  root: Hash,
  /** The entry hash at toSeq: it commits to the whole chain before it. */
  head: Hash,
  transactionHash: Hash,
  /** Pending | Committed | Rejected. */
  status: string(16),
  blockHeight: option(varuint),
});
export type AuditAnchor = Infer<typeof AuditAnchorCodec>;

export function entryHash(e: AuditEntry): string {
  return toHex(hash(encode(AuditEntryCodec, e)));
}

/** The JSON value an anchor stores under AUDIT_METADATA_KEY on the bridge account. */
export function anchorMetadata(a: Pick<AuditAnchor, 'fromSeq' | 'toSeq' | 'root' | 'head'>) {
  return { from_seq: a.fromSeq, to_seq: a.toSeq, root: a.root, head: a.head };
}

export function rangeRoot(entryHashes: readonly string[]): string {
  return toHex(merkleRoot(entryHashes.map((h) => fromHex(h, 32) ?? new Uint8Array(32))));
}

export type ChainCheck = { ok: true } | { ok: false; seq: number; reason: 'hash' | 'link' | 'order' };

/**
 * Checks consecutive entries: each one's hash (recomputed from its fields) and its link to the previous
 * entry. `prevHash` is the hash of the entry before the first (AUDIT_GENESIS_HASH for seq 1).
 */
export function verifyChain(
  entries: ReadonlyArray<AuditEntry & { hash: string }>,
  prevHash: string,
): ChainCheck {
  let prev = prevHash;
  let expectedSeq = entries[0]?.seq ?? 0;
  for (const e of entries) {
    if (e.seq !== expectedSeq) return { ok: false, seq: e.seq, reason: 'order' };
    const { hash: claimed, ...fields } = e;
    if (entryHash(fields) !== claimed) return { ok: false, seq: e.seq, reason: 'hash' };
    if (e.prevHash !== prev) return { ok: false, seq: e.seq, reason: 'link' };
    prev = claimed;
    expectedSeq++;
  }
  return { ok: true };
}
