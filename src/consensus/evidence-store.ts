// The node's evidence store ("stored with deduplication").
// Records are operator information, not ledger state. Bounded: at most
// `capacity` records; when full, the oldest is dropped (counted in `dropped`), so a flood of valid
// evidence can never grow memory or disk without limit.
//
// `EvidenceStore.open(path)` makes it durable (evidence-file.ts): every accepted record is appended and
// fsynced in the background (records accepted meanwhile share one write); `flush()` resolves once every
// record accepted so far is durable. At open the file is replayed through the same bounded, deduplicating
// `add`, so ids stay unique and `dropped` keeps counting across restarts. When the file holds more than
// twice `capacity` records it is rewritten with only the records in memory. `new EvidenceStore()` is the
// same store in memory only.

import { decodeFrame } from '../codec/frame.js';
import type { DecodeLimits } from '../codec/limits.js';
import { createSchemaRegistry } from '../model/schema.js';
import { assert } from '../util/assert.js';
import { toHex } from '../util/hex.js';
import {
  canonicalEvidence,
  EvidenceCodec,
  type EvidenceContext,
  type EvidenceKind,
  evidenceId,
  verifyEvidence,
} from './evidence.js';
import {
  type EvidenceEntry,
  EvidenceFile,
  type EvidenceFileContents,
  type EvidenceFileOptions,
} from './evidence-file.js';

export type { EvidenceEntry } from './evidence-file.js';

/** Records kept; the oldest is dropped beyond this. */
export const EVIDENCE_RECORDS_MAX = 4096;
/** Largest encoded evidence accepted (a double vote is ~500 bytes, an InvalidQc at most ~1.2 KiB). */
export const EVIDENCE_BYTES_MAX = 8 * 1024;
const EVIDENCE_DECODE_LIMITS: DecodeLimits = { bytesMax: EVIDENCE_BYTES_MAX, itemsMax: 64, depthMax: 16 };
/** Only reads schema descriptions (pure functions of the type definitions), so one instance is safe. */
const EVIDENCE_SCHEMA = createSchemaRegistry([EvidenceCodec]);
const ID_PATTERN = /^[0-9a-f]{64}$/;

export interface EvidencePage {
  total: number;
  items: EvidenceEntry[];
}

export interface EvidenceStoreOptions extends EvidenceFileOptions {
  capacity?: number;
  /**
   * Called once when a write to the file fails; records accepted afterwards stay in memory only and
   * `flush` rejects. The node treats it as fatal, like any write the disk refuses.
   */
  onError?: (error: unknown) => void;
}

export class EvidenceStore {
  /** Oldest first. */
  private readonly entries: EvidenceEntry[] = [];
  private readonly ids = new Set<string>();
  private droppedCount = 0;
  private file: EvidenceFile | undefined;
  /** Accepted records not yet handed to the file. */
  private unwritten: EvidenceEntry[] = [];
  private writing: Promise<void> | undefined;
  private failure: { error: unknown } | undefined;
  private truncatedTail = 0;
  private onError: (error: unknown) => void = () => undefined;

  constructor(readonly capacity: number = EVIDENCE_RECORDS_MAX) {
    if (!Number.isSafeInteger(capacity) || capacity < 1)
      throw new RangeError('evidence capacity must be >= 1');
  }

  /**
   * Opens the durable store at `path` (created when absent). Throws `StorageCorruptionError` when the
   * file is damaged anywhere but a torn last record, which is cut off.
   */
  static async open(path: string, opts: EvidenceStoreOptions = {}): Promise<EvidenceStore> {
    const store = new EvidenceStore(opts.capacity ?? EVIDENCE_RECORDS_MAX);
    const { file, contents } = await EvidenceFile.open(path, opts);
    store.replay(contents);
    store.file = file;
    if (opts.onError) store.onError = opts.onError;
    if (file.records > 2 * store.capacity) await store.compact(file);
    assert(file.records <= 2 * store.capacity, `evidence file of ${file.records} records after open`);
    return store;
  }

  private replay(contents: EvidenceFileContents): void {
    assert(this.entries.length === 0 && this.file === undefined, 'the evidence file is replayed once, first');
    for (const e of contents.records) this.remember(e);
    this.droppedCount += contents.droppedBefore;
    this.truncatedTail = contents.truncatedTailBytes;
  }

  add(entry: EvidenceEntry): 'accepted' | 'duplicate' {
    assert(ID_PATTERN.test(entry.id), 'an evidence id is 64 lowercase hex digits');
    // A record the file can encode (varuint fields): one accepted here must survive the background write.
    assert(
      Number.isSafeInteger(entry.recordedAtMs) &&
        entry.recordedAtMs >= 0 &&
        Number.isSafeInteger(entry.recordedAtHeight) &&
        entry.recordedAtHeight >= 0,
      `evidence recorded at ${entry.recordedAtMs} ms, height ${entry.recordedAtHeight}`,
    );
    const status = this.remember(entry);
    if (status === 'accepted' && this.file !== undefined) {
      this.unwritten.push(entry);
      if (this.failure === undefined) this.writing ??= this.drain(this.file);
    }
    return status;
  }

  private remember(entry: EvidenceEntry): 'accepted' | 'duplicate' {
    if (this.ids.has(entry.id)) return 'duplicate';
    this.entries.push(entry);
    this.ids.add(entry.id);
    if (this.entries.length > this.capacity) {
      const oldest = this.entries.shift()!;
      this.ids.delete(oldest.id);
      this.droppedCount++;
    }
    // Bounded, and deduplicated: one id per record kept.
    assert(
      this.entries.length <= this.capacity && this.ids.size === this.entries.length,
      `evidence store holds ${this.entries.length} records and ${this.ids.size} ids (capacity ${this.capacity})`,
    );
    return 'accepted';
  }

  /** Writes what waits, one batch per fsync; a failed write stops persistence (see `flush`). */
  private async drain(file: EvidenceFile): Promise<void> {
    try {
      while (this.unwritten.length > 0 && this.failure === undefined) {
        const batch = this.unwritten;
        this.unwritten = [];
        if (file.records + batch.length > 2 * this.capacity) await this.compact(file);
        else await file.append(batch);
      }
      // Everything accepted went to the file (or a write failed and stopped persistence).
      assert(
        this.failure !== undefined || (this.unwritten.length === 0 && file.records <= 2 * this.capacity),
        `evidence drain left ${this.unwritten.length} records unwritten, ${file.records} in the file`,
      );
    } catch (error) {
      this.failure = { error };
      this.onError(error);
    } finally {
      this.writing = undefined;
    }
  }

  /** Rewrites the file with exactly the records in memory (which include every unwritten one). */
  private async compact(file: EvidenceFile): Promise<void> {
    this.unwritten = [];
    const kept = [...this.entries];
    await file.rewrite(kept, this.droppedCount);
    assert(file.records === kept.length, `compacted to ${file.records} records, ${kept.length} kept`);
  }

  /**
   * Resolves once every record accepted so far is durable; rejects with the write error if the file
   * failed (later records then stay in memory only). Immediate for an in-memory store.
   */
  async flush(): Promise<void> {
    for (let w = this.writing; w !== undefined; w = this.writing === w ? undefined : this.writing) await w;
    if (this.failure !== undefined) throw this.failure.error;
  }

  /** Flushes, then closes the file; the store keeps answering from memory. */
  async close(): Promise<void> {
    const file = this.file;
    if (file === undefined) return;
    try {
      await this.flush();
    } finally {
      this.file = undefined;
      await file.close();
    }
  }

  /** Newest first, optionally one kind only; `total` counts every match. */
  list(q: { kind?: EvidenceKind; offset: number; limit: number }): EvidencePage {
    assert(
      Number.isSafeInteger(q.offset) && q.offset >= 0 && Number.isSafeInteger(q.limit) && q.limit >= 0,
      `evidence page offset ${q.offset} limit ${q.limit}`,
    );
    const matching = q.kind === undefined ? this.entries : this.entries.filter((e) => e.kind === q.kind);
    const newestFirst = [...matching].reverse();
    return { total: matching.length, items: newestFirst.slice(q.offset, q.offset + q.limit) };
  }

  count(): number {
    assert(
      this.ids.size === this.entries.length,
      `evidence store: ${this.ids.size} ids, ${this.entries.length} records`,
    );
    return this.entries.length;
  }

  /** Records dropped because the store was full, since the file was created. */
  get dropped(): number {
    return this.droppedCount;
  }

  /** Bytes of a torn last record cut off when the file was opened. */
  get truncatedTailBytes(): number {
    return this.truncatedTail;
  }

  /** Records in the file (0 in memory only); at most 2 x capacity once written. */
  get fileRecords(): number {
    const n = this.file?.records ?? 0;
    // Compaction keeps the file within twice the capacity.
    assert(n <= 2 * this.capacity, `evidence file of ${n} records, capacity ${this.capacity}`);
    return n;
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
