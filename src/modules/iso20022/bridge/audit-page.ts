// One page of the audit manifest for GET /v1/iso20022/audit/messages (README "Audit manifest"): the
// entries with their hashes, the hash before the first one (to check its link), the durable chain head,
// and for each entry already anchored the anchor and the entry's Merkle inclusion proof within it.

import { fromHex, toHex } from '../../../util/hex.js';
import { AUDIT_GENESIS_HASH, type AuditAnchor } from './audit.js';
import { merkleProof } from './merkle.js';
import type { BridgeStore, ChainHead, StoredEntry } from './store.js';

export interface AuditPageEntry extends StoredEntry {
  readonly anchorIndex: number | undefined;
  /** Audit path (RFC 6962 §2.1.1) of the entry hash in its anchor's range, leaf side first. */
  readonly proof: readonly string[];
}

export interface AuditPage {
  readonly total: number;
  readonly chainHead: ChainHead;
  /** The hash of the entry before the first one of the page (all zeros before entry 1). */
  readonly prevHash: string;
  readonly entries: readonly AuditPageEntry[];
  /** The committed anchors covering the page's entries. */
  readonly anchors: readonly AuditAnchor[];
  /** The anchor submitted but not yet committed, if any. */
  readonly pendingAnchor: AuditAnchor | undefined;
}

export function auditPage(
  store: BridgeStore,
  offset: number,
  limit: number,
  pendingAnchor: AuditAnchor | undefined,
): AuditPage {
  const head = store.durableHead();
  const fromSeq = offset + 1;
  const count = Math.max(0, Math.min(limit, head.seq - offset));
  const raw = count === 0 ? [] : store.entries(fromSeq, count);
  const prevHash =
    fromSeq <= 1 ? AUDIT_GENESIS_HASH : (store.entries(fromSeq - 1, 1)[0]?.hash ?? AUDIT_GENESIS_HASH);
  const anchors = new Map<number, { anchor: AuditAnchor; leaves: Uint8Array[] }>();
  const entries = raw.map((e) => {
    let found = [...anchors.values()].find((a) => a.anchor.fromSeq <= e.seq && e.seq <= a.anchor.toSeq);
    if (found === undefined) {
      const anchor = store.anchorCovering(e.seq);
      if (anchor !== undefined) {
        const leaves = store.entryHashes(anchor.fromSeq, anchor.toSeq).map((h) => fromHex(h, 32)!);
        found = { anchor, leaves };
        anchors.set(anchor.index, found);
      }
    }
    const proof =
      found === undefined ? [] : merkleProof(e.seq - found.anchor.fromSeq, found.leaves).map((p) => toHex(p));
    return { ...e, anchorIndex: found?.anchor.index, proof };
  });
  return {
    total: head.seq,
    chainHead: head,
    prevHash,
    entries,
    anchors: [...anchors.values()].map((a) => a.anchor),
    pendingAnchor,
  };
}
