// Verifies a page of the audit manifest as a client receives it (the JSON of GET
// /v1/iso20022/audit/messages), with nothing but the hash function: every entry hash recomputed from
// its fields, every `prev_hash` link, every inclusion proof against its anchor's root, and each anchor
// against what the ledger holds (the caller reads the anchoring block). README "Audit manifest".

import { fromHex } from '../../../util/hex.js';
import { type AuditEntry, AuditEntryCodec, entryHash } from './audit.js';
import { verifyMerkleProof } from './merkle.js';

export interface AuditPageJson {
  prev_hash: string;
  entries: ReadonlyArray<
    Record<string, unknown> & { seq: number; hash: string; anchor_index?: number; proof: string[] }
  >;
  anchors: ReadonlyArray<{
    index: number;
    from_seq: number;
    to_seq: number;
    root: string;
    head: string;
    transaction_hash: string;
    block_height?: number;
  }>;
}

/** What the anchoring transaction wrote on the ledger (`iso20022_audit` metadata), as read by the caller. */
export interface LedgerAnchor {
  readonly from_seq: number;
  readonly to_seq: number;
  readonly root: string;
  readonly head: string;
}

export interface AuditProblem {
  readonly seq?: number;
  readonly anchor?: number;
  readonly problem:
    | 'entry_hash'
    | 'link'
    | 'order'
    | 'proof'
    | 'anchor_missing'
    | 'anchor_mismatch'
    | 'entry_form';
}

function fields(e: AuditPageJson['entries'][number]): AuditEntry | undefined {
  const { hash: _h, anchor_index: _a, proof: _p, ...rest } = e;
  try {
    return AuditEntryCodec.fromJson(rest as never, 'entry');
  } catch {
    return undefined;
  }
}

export function verifyAuditPage(
  page: AuditPageJson,
  ledgerAnchor: (index: number) => LedgerAnchor | undefined,
): AuditProblem[] {
  const problems: AuditProblem[] = [];
  let prev = page.prev_hash;
  let seq = page.entries[0]?.seq ?? 0;
  for (const e of page.entries) {
    const f = fields(e);
    if (f === undefined) problems.push({ seq: e.seq, problem: 'entry_form' });
    else if (entryHash(f) !== e.hash) problems.push({ seq: e.seq, problem: 'entry_hash' });
    if (e.seq !== seq) problems.push({ seq: e.seq, problem: 'order' });
    if (e.prev_hash !== prev) problems.push({ seq: e.seq, problem: 'link' });
    prev = e.hash;
    seq = e.seq + 1;
    const a = page.anchors.find((x) => x.index === e.anchor_index);
    if (a === undefined) continue;
    const proof = e.proof.map((p) => fromHex(p, 32) ?? new Uint8Array(32));
    const ok = verifyMerkleProof(
      fromHex(e.hash, 32) ?? new Uint8Array(32),
      e.seq - a.from_seq,
      a.to_seq - a.from_seq + 1,
      proof,
      fromHex(a.root, 32) ?? new Uint8Array(32),
    );
    if (!ok) problems.push({ seq: e.seq, anchor: a.index, problem: 'proof' });
  }
  for (const a of page.anchors) {
    const onLedger = ledgerAnchor(a.index);
    if (onLedger === undefined) problems.push({ anchor: a.index, problem: 'anchor_missing' });
    else if (
      onLedger.root !== a.root ||
      onLedger.head !== a.head ||
      onLedger.from_seq !== a.from_seq ||
      onLedger.to_seq !== a.to_seq
    )
      problems.push({ anchor: a.index, problem: 'anchor_mismatch' });
  }
  return problems;
}
