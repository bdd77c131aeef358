// The node's evidence store (reference-notes §7: "stored with deduplication"). In memory, per node: the
// records are operator information, not ledger state, and a restart starts an empty store (the offending
// votes can be submitted again). Bounded: at most `capacity` records; when full, the oldest is dropped
// (counted in `dropped`), so a flood of valid evidence can never grow memory.

import { decodeFrame } from '../codec/frame.js';
import type { DecodeLimits } from '../codec/limits.js';
import { createSchemaRegistry } from '../model/schema.js';
import { toHex } from '../util/hex.js';
import {
  canonicalEvidence,
  type Evidence,
  EvidenceCodec,
  type EvidenceContext,
  type EvidenceKind,
  evidenceId,
  verifyEvidence,
} from './evidence.js';

/** Records kept; the oldest is dropped beyond this. */
export const EVIDENCE_RECORDS_MAX = 4096;
/** Largest encoded evidence accepted (a double vote is ~500 bytes, an InvalidQc at most ~1.2 KiB). */
export const EVIDENCE_BYTES_MAX = 8 * 1024;
const EVIDENCE_DECODE_LIMITS: DecodeLimits = { bytesMax: EVIDENCE_BYTES_MAX, itemsMax: 64, depthMax: 16 };
/** Only reads schema descriptions (pure functions of the type definitions), so one instance is safe. */
const EVIDENCE_SCHEMA = createSchemaRegistry([EvidenceCodec]);

export interface EvidenceEntry {
  /** Hex of `evidenceId`. */
  id: string;
  kind: EvidenceKind;
  /** What the evidence proves (`double_vote`, or the certificate problem of an InvalidQc). */
  finding: string;
  recordedAtMs: number;
  /** The chain height when the node recorded it. */
  recordedAtHeight: number;
  evidence: Evidence;
}

export interface EvidencePage {
  total: number;
  items: EvidenceEntry[];
}

export class EvidenceStore {
  /** Oldest first. */
  private readonly entries: EvidenceEntry[] = [];
  private readonly ids = new Set<string>();
  private droppedCount = 0;

  constructor(readonly capacity: number = EVIDENCE_RECORDS_MAX) {
    if (!Number.isSafeInteger(capacity) || capacity < 1)
      throw new RangeError('evidence capacity must be >= 1');
  }

  add(entry: EvidenceEntry): 'accepted' | 'duplicate' {
    if (this.ids.has(entry.id)) return 'duplicate';
    this.entries.push(entry);
    this.ids.add(entry.id);
    if (this.entries.length > this.capacity) {
      const oldest = this.entries.shift()!;
      this.ids.delete(oldest.id);
      this.droppedCount++;
    }
    return 'accepted';
  }

  /** Newest first, optionally one kind only; `total` counts every match. */
  list(q: { kind?: EvidenceKind; offset: number; limit: number }): EvidencePage {
    const matching = q.kind === undefined ? this.entries : this.entries.filter((e) => e.kind === q.kind);
    const newestFirst = [...matching].reverse();
    return { total: matching.length, items: newestFirst.slice(q.offset, q.offset + q.limit) };
  }

  count(): number {
    return this.entries.length;
  }

  /** Records dropped because the store was full. */
  get dropped(): number {
    return this.droppedCount;
  }
}

export type EvidenceOutcome =
  | { ok: true; status: 'accepted' | 'duplicate'; kind: EvidenceKind; id: string }
  | { ok: false; code: 'evidence_malformed' | 'evidence_invalid'; reason: string; message: string };

export interface AdmitContext extends EvidenceContext {
  store: EvidenceStore;
  nowMs: number;
  height: number;
}

/** Decodes (framed or bare codec bytes), verifies and stores one evidence record. */
export function admitEvidence(bytes: Uint8Array, ctx: AdmitContext): EvidenceOutcome {
  if (bytes.length > EVIDENCE_BYTES_MAX) {
    return {
      ok: false,
      code: 'evidence_malformed',
      reason: 'too_large',
      message: `over ${EVIDENCE_BYTES_MAX} bytes`,
    };
  }
  const d = decodeFrame(EVIDENCE_SCHEMA, EvidenceCodec, bytes, EVIDENCE_DECODE_LIMITS);
  if (!d.ok) return { ok: false, code: 'evidence_malformed', reason: d.error.code, message: d.error.message };
  const verdict = verifyEvidence(d.value, ctx);
  if (!verdict.ok)
    return { ok: false, code: 'evidence_invalid', reason: verdict.reason, message: verdict.message };
  const evidence = canonicalEvidence(d.value);
  const id = toHex(evidenceId(evidence));
  const status = ctx.store.add({
    id,
    kind: evidence.kind,
    finding: verdict.finding,
    recordedAtMs: ctx.nowMs,
    recordedAtHeight: ctx.height,
    evidence,
  });
  return { ok: true, status, kind: evidence.kind, id };
}
