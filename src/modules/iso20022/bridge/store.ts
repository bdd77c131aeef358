// Durable bridge records and the audit chain (README "Records"): one LMDB environment under the node's
// data directory (`<data>/bridge/`), written in ordered transactions that are flushed to disk (fsync)
// before the caller continues, the same discipline as the state store (src/storage/state-store.ts).
// Reads are synchronous. A record changed but not yet flushed is served from a small write-through
// cache, so every caller sees its own writes; that is what makes duplicate checks and return tallies
// exact under concurrency. Two more in-memory copies spare the hot path reads of what this process has
// just written (README "Throughput"): the latest durable version of records still Pending (the bridge
// reads each one back on every status change) and the hashes of the newest audit entries (what an
// anchor's Merkle root is computed over). Both only ever hold what is on disk, and are bounded.

import { mkdir } from 'node:fs/promises';
import { type Database, open as openLmdb, type RootDatabase } from 'lmdb';
import type { Codec } from '../../../codec/codec.js';
import { decode, encode } from '../../../codec/frame.js';
import { hash } from '../../../crypto/hash.js';
import { toHex } from '../../../util/hex.js';
import { closeLmdb, LMDB_WRITE_OPTIONS, settleCommitError } from '../../../util/lmdb-writes.js';
import {
  AUDIT_ANCHOR_ENTRIES_MAX,
  AUDIT_GENESIS_HASH,
  type AuditAnchor,
  AuditAnchorCodec,
  type AuditEntry,
  AuditEntryCodec,
  entryHash,
} from './audit.js';
import { BridgeError } from './errors.js';
import { type BridgeRecord, BridgeRecordCodec } from './record.js';

const DECODE_LIMITS = { bytesMax: 16 * 1024 * 1024, itemsMax: 100_000, depthMax: 32 };
const META_HEAD = 'audit_head';
/** Durable Pending records kept decoded in memory at most (the oldest is dropped first). */
export const LIVE_RECORDS_MAX = 16_384;
/** Hashes of the newest audit entries kept in memory: twice what one anchor covers. */
const RECENT_HASHES_MAX = 2 * AUDIT_ANCHOR_ENTRIES_MAX;
export const META_PENDING_ANCHOR = 'pending_anchor';
export const META_PENDING_ANCHOR_TX = 'pending_anchor_tx';

export interface RecordChange {
  readonly record: BridgeRecord;
  /** The audit event this change is logged as. */
  readonly event: string;
}

export interface StoreWrite {
  readonly changes: readonly RecordChange[];
  /** Signed transactions (framed) to keep by message id, for resubmission after a restart. */
  readonly transactions?: ReadonlyArray<readonly [string, Uint8Array]>;
  readonly meta?: ReadonlyArray<readonly [string, Uint8Array | undefined]>;
  readonly committedAnchor?: AuditAnchor;
}

export type StoredEntry = AuditEntry & { readonly hash: string };
export interface ChainHead {
  readonly seq: number;
  readonly hash: string;
}

type Bytes = Database<Uint8Array, string | number>;

interface QueuedWrite {
  readonly write: StoreWrite;
  readonly entries: ReadonlyArray<readonly [number, Uint8Array]>;
  /** Id, record, its encoding, and whether the pending set must change (it holds the id already). */
  readonly records: ReadonlyArray<readonly [string, BridgeRecord, Uint8Array, boolean]>;
  readonly head: ChainHead;
  resolve(): void;
  reject(e: unknown): void;
}

export class BridgeStore {
  private readonly dirty = new Map<string, BridgeRecord>();
  /** The durable version of Pending records (insertion order is age: the oldest is dropped first). */
  private readonly live = new Map<string, BridgeRecord>();
  /** Hashes of the audit entries from `recentFrom` on, as written by this process (durable or not). */
  private recent: string[] = [];
  private recentFrom: number;
  private readonly queue: QueuedWrite[] = [];
  private readonly idle: Array<() => void> = [];
  private flushing = false;
  private failure: unknown;
  private closing = false;
  private durable: ChainHead;

  private constructor(
    private readonly root: RootDatabase,
    private readonly records: Bytes,
    private readonly txs: Bytes,
    private readonly audit: Bytes,
    private readonly anchors: Bytes,
    private readonly pending: Bytes,
    private readonly meta: Bytes,
    private readonly fsync: boolean,
    private readonly nowMs: () => number,
    private head: ChainHead,
    private readonly liveMax: number,
  ) {
    this.durable = head;
    this.recentFrom = head.seq + 1;
  }

  /** `liveRecordsMax`: durable Pending records kept decoded in memory (LIVE_RECORDS_MAX unless told). */
  static async open(
    dir: string,
    opts: { fsync: boolean; nowMs: () => number; liveRecordsMax?: number },
  ): Promise<BridgeStore> {
    await mkdir(dir, { recursive: true });
    const root = openLmdb({
      path: dir,
      compression: false,
      cache: false,
      noSync: !opts.fsync,
      maxDbs: 8,
      ...LMDB_WRITE_OPTIONS,
    });
    const db = (name: string) =>
      root.openDB<Uint8Array, string | number>({ name, encoding: 'binary', compression: false });
    const meta = db('meta');
    const stored = meta.get(META_HEAD);
    const head = stored === undefined ? { seq: 0, hash: AUDIT_GENESIS_HASH } : decodeHead(stored);
    return new BridgeStore(
      root,
      db('records'),
      db('transactions'),
      db('audit'),
      db('anchors'),
      db('pending'),
      meta,
      opts.fsync,
      opts.nowMs,
      head,
      opts.liveRecordsMax ?? LIVE_RECORDS_MAX,
    );
  }

  get healthy(): boolean {
    return this.failure === undefined && !this.closing;
  }

  get(messageId: string): BridgeRecord | undefined {
    const cached = this.dirty.get(messageId) ?? this.live.get(messageId);
    if (cached !== undefined) return cached;
    const bytes = this.records.get(messageId);
    return bytes === undefined ? undefined : decodeOrFail(BridgeRecordCodec, bytes, `record ${messageId}`);
  }

  signedTransaction(messageId: string): Uint8Array | undefined {
    const b = this.txs.get(messageId);
    return b === undefined ? undefined : new Uint8Array(b);
  }

  metaBytes(key: string): Uint8Array | undefined {
    const b = this.meta.get(key);
    return b === undefined ? undefined : new Uint8Array(b);
  }

  /** Ids of the records still Pending (awaiting the ledger or a cancellation outcome). */
  pendingIds(): string[] {
    return [...this.pending.getKeys()].map(String);
  }

  /** The newest chain entry, written or not. */
  chainHead(): ChainHead {
    return this.head;
  }

  /** The newest chain entry that is on disk. */
  durableHead(): ChainHead {
    return this.durable;
  }

  entries(fromSeq: number, limit: number): StoredEntry[] {
    const out: StoredEntry[] = [];
    for (const { value } of [...this.audit.getRange({ start: fromSeq, limit })]) {
      const e = decodeOrFail(AuditEntryCodec, value, 'audit entry');
      out.push({ ...e, hash: entryHash(e) });
    }
    return out;
  }

  /** The hashes of the durable entries fromSeq..toSeq: from memory when this process wrote them all. */
  entryHashes(fromSeq: number, toSeq: number): string[] {
    if (fromSeq >= this.recentFrom && toSeq <= this.durable.seq && fromSeq <= toSeq)
      return this.recent.slice(fromSeq - this.recentFrom, toSeq - this.recentFrom + 1);
    return this.entries(fromSeq, toSeq - fromSeq + 1).map((e) => e.hash);
  }

  /** The committed anchor whose range holds `seq`. */
  anchorCovering(seq: number): AuditAnchor | undefined {
    // Ranges are read to the end (asArray): leaving an lmdb range iterator early disturbed later reads.
    const first = [...this.anchors.getRange({ start: seq, limit: 1 })][0];
    const a = first === undefined ? undefined : decodeOrFail(AuditAnchorCodec, first.value, 'audit anchor');
    return a !== undefined && a.fromSeq <= seq ? a : undefined;
  }

  latestAnchor(): AuditAnchor | undefined {
    const last = [...this.anchors.getRange({ reverse: true, limit: 1 })][0];
    return last === undefined ? undefined : decodeOrFail(AuditAnchorCodec, last.value, 'audit anchor');
  }

  /**
   * Applies record changes (each logged as one audit entry, in order) and the extras, and resolves once
   * they are on disk. The cache and chain head change at once. Writes queued while a commit is being
   * flushed go to disk together in the next LMDB transaction (group commit: one fsync for many
   * messages), in the order they were applied.
   */
  apply(write: StoreWrite): Promise<void> {
    this.checkUsable();
    const entries: Array<readonly [number, Uint8Array]> = [];
    const records: Array<readonly [string, BridgeRecord, Uint8Array, boolean]> = [];
    for (const { record, event } of write.changes) {
      // One encoding serves the stored value and the hash the audit entry commits to (record.ts).
      const bytes = encode(BridgeRecordCodec, record, 1024);
      const entry: AuditEntry = {
        seq: this.head.seq + 1,
        timeMs: this.nowMs(),
        messageId: record.messageId,
        event,
        status: record.resolution ?? record.pacs002Code,
        recordHash: toHex(hash(bytes)),
        prevHash: this.head.hash,
      };
      const entryBytes = encode(AuditEntryCodec, entry);
      this.head = { seq: entry.seq, hash: toHex(hash(entryBytes)) };
      this.remember(this.head);
      entries.push([entry.seq, entryBytes]);
      // A record that stays Pending is in the pending set already when its previous version (queued
      // before this one, or durable) was Pending: only a change of state touches the set.
      const previous = this.dirty.get(record.messageId) ?? this.live.get(record.messageId);
      const pendingChanges = previous?.status !== 'Pending' || record.status !== 'Pending';
      records.push([record.messageId, record, bytes, pendingChanges]);
      this.dirty.set(record.messageId, record);
    }
    const head = this.head;
    return new Promise((resolve, reject) => {
      this.queue.push({ write, entries, records, head, resolve, reject });
      if (!this.flushing) {
        this.flushing = true;
        void this.drain();
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0);
      try {
        // Writes accepted before close() still go to disk; only a failed store refuses them.
        if (this.failure !== undefined) throw this.failure;
        await this.root.transaction(() => {
          for (const w of batch) this.writeSync(w);
          // One chain head per transaction: the last write's (group commit writes many).
          this.meta.putSync(META_HEAD, encodeHead(batch[batch.length - 1]!.head));
        });
        if (this.fsync) await this.root.flushed;
      } catch (e) {
        // A failed transaction (a full disk) fails the store; its second rejection is handled here.
        settleCommitError(e);
        if (!(e instanceof BridgeError)) this.failure = e;
        const err = new BridgeError('iso_bridge_unavailable', 'the bridge record store failed', {
          reason: String(e),
        });
        for (const w of batch) w.reject(err);
        continue;
      }
      for (const w of batch) {
        this.durable = w.head;
        for (const [id, r] of w.records) {
          if (this.dirty.get(id) === r) this.dirty.delete(id);
          this.keepLive(id, r);
        }
        w.resolve();
      }
    }
    this.flushing = false;
    for (const wake of this.idle.splice(0)) wake();
  }

  private writeSync(w: QueuedWrite): void {
    for (const [id, r, bytes, pendingChanges] of w.records) {
      this.records.putSync(id, bytes);
      if (!pendingChanges) continue;
      if (r.status === 'Pending') this.pending.putSync(id, new Uint8Array(0));
      else this.pending.removeSync(id);
    }
    for (const [seq, bytes] of w.entries) this.audit.putSync(seq, bytes);
    for (const [id, bytes] of w.write.transactions ?? []) this.txs.putSync(id, bytes);
    for (const [key, bytes] of w.write.meta ?? []) {
      if (bytes === undefined) this.meta.removeSync(key);
      else this.meta.putSync(key, bytes);
    }
    const a = w.write.committedAnchor;
    if (a !== undefined) this.anchors.putSync(a.toSeq, encode(AuditAnchorCodec, a));
  }

  /** Keeps the durable version of a Pending record decoded in memory; a final one leaves. */
  private keepLive(id: string, r: BridgeRecord): void {
    this.live.delete(id);
    if (r.status !== 'Pending') return;
    this.live.set(id, r);
    if (this.live.size > this.liveMax) this.live.delete(this.live.keys().next().value!);
  }

  /** Appends the hash of the entry just chained; drops the older half when the window is full. */
  private remember(head: ChainHead): void {
    this.recent.push(head.hash);
    if (this.recent.length > RECENT_HASHES_MAX) {
      const drop = this.recent.length - AUDIT_ANCHOR_ENTRIES_MAX;
      this.recent = this.recent.slice(drop);
      this.recentFrom += drop;
    }
  }

  /**
   * Resolves once the latest change of `messageId` is on disk. A duplicate is answered only after the
   * first copy is durable: a crash in between must not leave a client told "already received" about a
   * message the bridge never kept. Rejects with `iso_bridge_unavailable` when the store failed first.
   */
  async whenDurable(messageId: string): Promise<void> {
    if (!this.dirty.has(messageId)) return;
    await this.settled();
    if (this.dirty.has(messageId))
      throw new BridgeError('iso_bridge_unavailable', 'the bridge record store failed', {
        reason: String(this.failure ?? 'the record was not written'),
      });
  }

  /** Resolves when every write issued so far is on disk (or failed). */
  settled(): Promise<void> {
    if (!this.flushing) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  /** Refuses new writes, lets the queued ones reach the disk, then closes LMDB. Idempotent. */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    await this.settled();
    await closeLmdb(this.root, this.failure !== undefined);
  }

  private checkUsable(): void {
    if (this.closing || this.failure !== undefined) {
      throw new BridgeError('iso_bridge_unavailable', 'the bridge record store is closed or failed', {
        reason: this.closing ? 'closed' : String(this.failure),
      });
    }
  }
}

function encodeHead(h: ChainHead): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(h));
}

function decodeHead(bytes: Uint8Array): ChainHead {
  const v = JSON.parse(new TextDecoder().decode(bytes)) as ChainHead;
  return { seq: v.seq, hash: v.hash };
}

function decodeOrFail<T>(codec: Codec<T>, bytes: Uint8Array, what: string): T {
  const r = decode(codec, bytes, DECODE_LIMITS);
  if (!r.ok) {
    throw new BridgeError('iso_bridge_unavailable', `stored ${what} does not decode`, {
      reason: r.error.code,
    });
  }
  return r.value;
}
