// Durable world state: after each committed block the node writes that block's state changes and
// the applied (height, block hash) in ONE LMDB write transaction, and continues only once it is
// flushed (docs/design/architecture.md). A crash therefore leaves either the old or the new height
// with its matching data, never a mix, and a restart resumes without replaying every block. The
// state can always be rebuilt from the block log (docs/design/testing.md "Durability discipline").

import { chmod, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { RootDatabase } from 'lmdb';
import { open as openLmdb } from 'lmdb';
import { assert } from '../util/assert.js';
import type { FailPoints } from '../util/failpoints.js';
import { noFailPoints } from '../util/failpoints.js';
import { bytesEqual } from '../util/hex.js';
import { closeLmdb, LMDB_WRITE_OPTIONS, settleCommitError } from '../util/lmdb-writes.js';
import type { StateBackend, StateChange } from './block-store.js';
import { StorageCorruptionError, StorageError } from './errors.js';
import { HASH_BYTES } from './record.js';
import type { PackedRows } from './row-pack.js';
import {
  decodeApplied,
  encodeApplied,
  fromUserKey,
  META_APPLIED,
  prefixRange,
  userKey,
} from './state-keys.js';
import { StateWarmUp, type WarmUpProgress } from './state-warm.js';

export { STATE_KEY_BYTES_MAX } from './state-keys.js';

export const STATE_DIR = 'state';

export type { StateChange } from './block-store.js';

export interface StateStoreOptions {
  /** Wait for each commit to reach the disk; false only for tests and benchmarks. */
  fsync?: boolean;
  failPoints?: FailPoints;
  /** Initial LMDB map size; LMDB grows it when needed. */
  mapSizeBytes?: number;
  /**
   * The kernel's read-ahead on the map (default true). Off (MDB_NORDAHEAD), a page fault reads the one page
   * it needs: for a state larger than memory read at random keys (docs/operations.md "State larger than memory").
   */
  readAhead?: boolean;
  /**
   * Map the file in chunks of 16 pages kept in a bounded cache and unmapped when it is full (LMDB's
   * MDB_REMAP_CHUNKS; default false: the whole file in one mapping). The mapped file pages in the resident set
   * then stay bounded however many pages the reads touch (docs/operations.md "State larger than memory").
   */
  mapChunks?: boolean;
}

type Db = RootDatabase<Uint8Array, Uint8Array>;

/** LMDB's put options for keys given in ascending order above every stored key (MDB_APPEND). */
const APPEND = Object.freeze({ append: true });

/** MDB_NORDAHEAD: an lmdb option its type declarations do not list (spread, so not checked as a literal). */
const READ_AHEAD_OFF: { readonly noReadAhead: true } = { noReadAhead: true };

/** MDB_REMAP_CHUNKS (lmdb's `remapChunks`). */
const MAP_CHUNKS: { readonly remapChunks: true } = { remapChunks: true };

function openDb(path: string, opts: StateStoreOptions): Db {
  // Config (the schema bounds it): LMDB would take a NaN or fractional map size silently.
  assert(
    opts.mapSizeBytes === undefined || (Number.isSafeInteger(opts.mapSizeBytes) && opts.mapSizeBytes > 0),
    `state store map size ${opts.mapSizeBytes}`,
  );
  return openLmdb<Uint8Array, Uint8Array>({
    path,
    keyEncoding: 'binary',
    encoding: 'binary',
    compression: false,
    cache: false,
    ...LMDB_WRITE_OPTIONS,
    noSync: !(opts.fsync ?? true),
    ...(opts.readAhead === false ? READ_AHEAD_OFF : {}),
    ...(opts.mapChunks === true ? MAP_CHUNKS : {}),
    ...(opts.mapSizeBytes === undefined ? {} : { mapSize: opts.mapSizeBytes }),
  });
}

export class StateStore implements StateBackend {
  /** Commits and clears run one at a time, in call order. */
  private writeTail: Promise<void> = Promise.resolve();
  private closed = false;
  /** Set when a flush failed after a commit: what is on disk is unknown until a reopen. */
  private failure: unknown;

  private constructor(
    private readonly path: string,
    private readonly opts: StateStoreOptions,
    private db: Db,
    private readonly fsync: boolean,
    private readonly failPoints: FailPoints,
    private height: number,
    private blockHash: Uint8Array | undefined,
  ) {
    assert(
      height === 0 ? blockHash === undefined : blockHash?.length === HASH_BYTES,
      `state store: applied height ${height} with a ${blockHash?.length ?? 'missing'} block hash`,
    );
  }

  /** Opens (creating if needed) the LMDB environment in `<dir>/state/`. */
  static async open(dir: string, opts: StateStoreOptions = {}): Promise<StateStore> {
    const path = join(dir, STATE_DIR);
    // 0700 directory, and 0600 files below: LMDB creates its files with 0644 & ~umask.
    await mkdir(path, { recursive: true, mode: 0o700 });
    const fsync = opts.fsync ?? true;
    const db = openDb(path, opts);
    for (const name of await readdir(path)) await chmod(join(path, name), 0o600);
    const stored = db.get(META_APPLIED);
    let applied: ReturnType<typeof decodeApplied>;
    if (stored !== undefined) {
      applied = decodeApplied(stored);
      if (applied === undefined) {
        await db.close();
        throw new StorageCorruptionError({
          file: path,
          offset: 0,
          height: undefined,
          reason: 'state_meta_invalid',
        });
      }
    }
    return new StateStore(
      path,
      opts,
      db,
      fsync,
      opts.failPoints ?? noFailPoints,
      applied?.height ?? 0,
      applied?.blockHash,
    );
  }

  /** Height of the last block whose changes are durable here; 0 when empty. */
  appliedHeight(): number {
    assert(
      Number.isSafeInteger(this.height) && this.height >= 0,
      `state store: applied height ${this.height}`,
    );
    return this.height;
  }

  appliedBlockHash(): Uint8Array | undefined {
    // Recorded exactly when a block is applied (commit sets both, clear resets both).
    assert(
      this.height === 0 ? this.blockHash === undefined : this.blockHash?.length === HASH_BYTES,
      `state store: applied height ${this.height} with a ${this.blockHash?.length ?? 'missing'} block hash`,
    );
    return this.blockHash === undefined ? undefined : new Uint8Array(this.blockHash);
  }

  /**
   * Applies `changes` (in order; a later change to the same key wins) and records `height` and
   * `blockHash` as applied, atomically; resolves once durable. `height` must be appliedHeight() + 1.
   */
  commit(height: number, blockHash: Uint8Array, changes: readonly StateChange[]): Promise<void> {
    return this.serialise(() => this.commitNow(height, blockHash, changes));
  }

  private async commitNow(
    height: number,
    blockHash: Uint8Array,
    changes: readonly StateChange[],
  ): Promise<void> {
    this.checkOpen();
    if (this.failure !== undefined) {
      throw new StorageError('storage_failed', 'an earlier flush failed; reopen the state store', {
        cause: String(this.failure),
      });
    }
    if (height !== this.height + 1) {
      throw new StorageError(
        'storage_invalid_height',
        `commit height ${height}, expected ${this.height + 1}`,
        {
          height,
          expectedHeight: this.height + 1,
        },
      );
    }
    if (blockHash.length !== HASH_BYTES) {
      throw new StorageError('storage_invalid_commit', `block hash must be ${HASH_BYTES} bytes`, {
        bytes: blockHash.length,
      });
    }
    // The whole batch is prepared and checked before LMDB sees any of it: lmdb-js commits whatever a
    // batch callback queued even when the callback throws, so the callback must not be able to throw.
    const writes = prepareWrites(changes);
    writes.push({ key: META_APPLIED, value: encodeApplied(height, blockHash) });
    const appliedHash = new Uint8Array(blockHash);
    this.failPoints.hit('state.before-commit');
    // A crash here, with every operation prepared, must leave the previous height intact.
    this.failPoints.hit('state.mid-transaction');
    // One batch of asynchronous writes: the callback only queues them, and LMDB's write thread applies
    // them all in ONE transaction, so the B-tree work stays off the event loop (a transaction callback
    // would run every put on it while the write thread waits).
    await this.writeBatch(writes);
    await this.flush();
    // The batch applied as one transaction: the stored applied height is this commit's (one lookup).
    const stored = this.db.get(META_APPLIED);
    assert(
      stored !== undefined && decodeApplied(stored)?.height === height,
      `state store: after commit ${height} the stored applied height is ${stored && decodeApplied(stored)?.height}`,
    );
    this.failPoints.hit('state.after-commit');
    // Commits are serialised: nothing moved the applied height while this one was in flight.
    assert(
      this.height === height - 1,
      `state store: applied height moved to ${this.height} during commit ${height}`,
    );
    this.height = height;
    this.blockHash = appliedHash;
  }

  /**
   * Restoring a snapshot (node/snapshot-restore.ts): writes `changes` into a store that has applied
   * nothing, in one transaction, leaving the applied height at 0 until `finishRestore`.
   */
  restoreRows(changes: readonly StateChange[]): Promise<void> {
    assert(Array.isArray(changes), 'state store: restore of a non-list');
    return this.serialise(() => this.writeRestore(changes, undefined));
  }

  /**
   * Like restoreRows, for a bulk write (a genesis import): the rows of `pack` in one transaction whose
   * puts run in one synchronous callback (no object or promise per row). The pack may be reused after.
   * `append`: the pack's keys ascend and all lie above every key in the store (a bulk load written in key
   * order): LMDB appends them at the end of its B-tree (MDB_APPEND), filling each page once. A key out
   * of that order stops the write there (the keys before it are written) and rejects with
   * `storage_invalid_append`: a bulk load's caller then removes the store.
   */
  restorePacked(pack: PackedRows, opts: { append?: boolean } = {}): Promise<void> {
    const flags = opts.append === true ? APPEND : undefined;
    return this.serialise(async () => {
      this.checkOpen();
      if (this.height !== 0)
        throw new StorageError('storage_invalid_height', `restoring into a store applied at ${this.height}`, {
          height: this.height,
        });
      let written = 0;
      let refused: Uint8Array | undefined;
      try {
        await this.db.transaction(() => {
          for (const { key, value } of pack.stored()) {
            // A put answers false only in append mode: the key is not above the last one stored.
            // (lmdb's types say void; it returns whether the put was made.)
            const made: unknown =
              flags === undefined ? this.db.putSync(key, value) : this.db.putSync(key, value, flags);
            if (made === false) {
              refused = new Uint8Array(key);
              return;
            }
            written++;
          }
        });
      } catch (e) {
        settleCommitError(e);
        this.failure = e;
        throw new StorageError('storage_failed', `state write failed (a full disk?): ${String(e)}`, {
          cause: String(e),
        });
      }
      await this.flush();
      if (refused !== undefined)
        throw new StorageError('storage_invalid_append', 'a key appended below the last key of the store', {
          key: Buffer.from(refused).toString('hex'),
        });
      assert(written === pack.length, `state store: ${written} of ${pack.length} packed rows written`);
    });
  }

  /** The last write of a restore: `changes` and the applied (`height`, `blockHash`), atomically. */
  finishRestore(height: number, blockHash: Uint8Array, changes: readonly StateChange[]): Promise<void> {
    // A snapshot's height: a certified block above genesis.
    assert(Number.isSafeInteger(height) && height >= 1, `state store: restore finished at ${height}`);
    return this.serialise(() => this.writeRestore(changes, { height, blockHash }));
  }

  private async writeRestore(
    changes: readonly StateChange[],
    applied: { height: number; blockHash: Uint8Array } | undefined,
  ): Promise<void> {
    this.checkOpen();
    if (this.height !== 0)
      throw new StorageError('storage_invalid_height', `restoring into a store applied at ${this.height}`, {
        height: this.height,
      });
    if (applied !== undefined && applied.blockHash.length !== HASH_BYTES)
      throw new StorageError('storage_invalid_commit', `block hash must be ${HASH_BYTES} bytes`, {
        bytes: applied.blockHash.length,
      });
    const writes = prepareWrites(changes);
    if (applied !== undefined)
      writes.push({ key: META_APPLIED, value: encodeApplied(applied.height, applied.blockHash) });
    await this.writeBatch(writes);
    await this.flush();
    if (applied !== undefined) {
      this.height = applied.height;
      this.blockHash = new Uint8Array(applied.blockHash);
    }
    // Rows alone leave nothing applied; the last write records exactly the snapshot's height.
    assert(
      this.height === (applied?.height ?? 0),
      `state store: applied ${this.height} after restoring ${applied?.height ?? 'rows'}`,
    );
  }

  get(key: Uint8Array | string): Uint8Array | undefined {
    this.checkOpen();
    const v = this.db.get(userKey(key));
    // The database holds bytes only (binary encoding): anything else is a store opened wrongly.
    assert(v === undefined || v instanceof Uint8Array, 'state store: a value that is not bytes');
    return v;
  }

  /** Entries whose key starts with `prefix` (default: all), sorted by key bytes. */
  *entries(
    prefix: Uint8Array | string = new Uint8Array(0),
  ): Iterable<{ key: Uint8Array; value: Uint8Array }> {
    this.checkOpen();
    const range = prefixRange(prefix);
    let previous: Uint8Array | undefined;
    for (const { key, value } of this.db.getRange(range)) {
      // Strictly increasing keys: callers rely on key order (sorted scans are hashed and paged).
      assert(previous === undefined || Buffer.compare(previous, key) < 0, 'state store: scan out of order');
      previous = key;
      // The range holds exactly the keys that start with the prefix (prefixRange's end is exclusive).
      assert(
        key.length >= range.start.length && bytesEqual(key.subarray(0, range.start.length), range.start),
        'state store: a range scan yielded a key outside its prefix',
      );
      yield { key: fromUserKey(key), value };
    }
  }

  /** Entries with start ≤ key < end, ascending by key bytes, or descending with `reverse`. */
  *range(
    start: Uint8Array,
    end: Uint8Array,
    reverse: boolean,
  ): Iterable<{ key: Uint8Array; value: Uint8Array }> {
    this.checkOpen();
    const lo = userKey(start);
    const hi = userKey(end);
    if (Buffer.compare(lo, hi) >= 0) return;
    // LMDB's reverse range runs from its start (inclusive) down to its end (exclusive): from `hi` down
    // to a strict prefix of `lo` (a smaller key), skipping `hi` itself and stopping below `lo`.
    const rows = reverse
      ? this.db.getRange({ start: hi, end: lo.subarray(0, lo.length - 1), reverse: true })
      : this.db.getRange({ start: lo, end: hi });
    let previous: Uint8Array | undefined;
    for (const { key, value } of rows) {
      if (reverse && Buffer.compare(key, hi) >= 0) continue;
      if (reverse && Buffer.compare(key, lo) < 0) return;
      assert(
        previous === undefined || Buffer.compare(previous, key) * (reverse ? -1 : 1) < 0,
        'state store: range read out of order',
      );
      previous = key;
      yield { key: fromUserKey(key), value };
    }
  }

  /** Deletes everything, the applied height included (before a rebuild from the block log). */
  clear(): Promise<void> {
    return this.serialise(async () => {
      this.checkOpen();
      await this.db.clearAsync();
      await this.flush();
      assert(this.db.get(META_APPLIED) === undefined, 'state store: the applied height survived a clear');
      this.height = 0;
      this.blockHash = undefined;
    });
  }

  /**
   * Closes and reopens the LMDB environment once the writes in flight are done, so the pages a full
   * read mapped in (the world state loaded at start) leave the process's resident set: with a million
   * accounts they were a gigabyte of RSS the node never reads again. Nothing is lost: every
   * commit before it is durable, and reads and writes after it use the reopened map.
   */
  releaseMappedPages(): Promise<void> {
    return this.serialise(async () => {
      this.checkOpen();
      // A failed store is not reopened here (its close would wait for a flush LMDB never settles).
      if (this.failure !== undefined) return;
      await this.db.close();
      this.db = openDb(this.path, this.opts);
      // Reopened over the same files: what they record as applied is what this store believes.
      const stored = this.db.get(META_APPLIED);
      assert(
        (stored === undefined ? 0 : decodeApplied(stored)?.height) === this.height,
        `state store: reopened at applied height ${stored && decodeApplied(stored)?.height}, expected ${this.height}`,
      );
    });
  }

  /** The warm-ups started and not yet settled; close() stops them before LMDB closes. */
  private readonly warmUps = new Set<StateWarmUp>();

  /**
   * Starts reading, on a worker thread, every stored key of the user key space whose first byte is in
   * [`fromByte`, `toByte`), in key order, so their pages come into the page cache (state-warm.ts). The pages
   * it reads are mapped like any read's: with `mapChunks` a bounded number of them, else all of them.
   */
  warmUp(fromByte: number, toByte: number, onProgress?: (p: WarmUpProgress) => void): StateWarmUp {
    this.checkOpen();
    assert(
      Number.isInteger(fromByte) &&
        Number.isInteger(toByte) &&
        0 <= fromByte &&
        fromByte < toByte &&
        toByte <= 0xff,
      `state warm-up: key bytes [${fromByte}, ${toByte})`,
    );
    const warm = StateWarmUp.start(
      this.path,
      [{ start: userKey(Uint8Array.of(fromByte)), end: userKey(Uint8Array.of(toByte)) }],
      onProgress,
    );
    this.warmUps.add(warm);
    void warm.done.catch(() => {}).finally(() => this.warmUps.delete(warm));
    return warm;
  }

  /** Waits for writes in flight, then closes LMDB. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // A warm-up's worker holds the environment open: it ends first.
    await Promise.all([...this.warmUps].map((w) => w.stop()));
    const height = this.height;
    await this.writeTail;
    // Commits queued before the close may finish; the applied height never goes back.
    assert(this.height >= height, `state store: applied height went back to ${this.height} at close`);
    await closeLmdb(this.db, this.failure !== undefined);
  }

  /**
   * One LMDB batch of `writes`. A failed write transaction (a full disk: ENOSPC) rejects the batch with
   * an error whose `commitError` is a second promise LMDB rejects with the cause; left unhandled, that
   * rejection (or that of an event-turn batch: LMDB_WRITE_OPTIONS) would end the process instead of
   * this store's `storage_failed`.
   */
  private async writeBatch(writes: readonly Write[]): Promise<void> {
    // Callers checked the store open and prepared every write (no write can throw while queued).
    assert(!this.closed && writes.every((w) => w.key.length > 0), 'state store: a batch on a closed store');
    try {
      await this.db.batch(() => {
        // Each queued write answers with its own promise, rejected too when the transaction fails:
        // handled here (the batch's own rejection carries the failure).
        for (const w of writes) {
          const done = w.value === undefined ? this.db.remove(w.key) : this.db.put(w.key, w.value);
          done.catch(() => undefined);
        }
      });
    } catch (e) {
      // Handled here, never awaited: LMDB settles it when its write thread reports the cause (it also
      // prints it), which a failed commit must not wait for.
      settleCommitError(e);
      this.failure = e;
      throw new StorageError('storage_failed', `state write failed (a full disk?): ${String(e)}`, {
        cause: String(e),
      });
    }
  }

  /** With overlapping sync LMDB resolves a commit when visible; durability needs the flush too. */
  private async flush(): Promise<void> {
    if (!this.fsync) return;
    try {
      await this.db.flushed;
    } catch (e) {
      this.failure = e;
      throw new StorageError('storage_failed', `state flush failed: ${String(e)}`, { cause: String(e) });
    }
  }

  private serialise(work: () => Promise<void>): Promise<void> {
    const run = this.writeTail.then(work);
    this.writeTail = run.catch(() => undefined);
    return run;
  }

  private checkOpen(): void {
    if (this.closed) throw new StorageError('storage_closed', 'the state store is closed');
  }
}

interface Write {
  key: Uint8Array;
  value: Uint8Array | undefined;
}

/**
 * The stored keys and values of `changes`, every one checked against what LMDB accepts (key size,
 * value type), so queueing them afterwards cannot throw. Throws `StorageError` before anything is
 * written.
 */
function prepareWrites(changes: readonly StateChange[]): Write[] {
  const writes = changes.map((c, index) => {
    const value: unknown = c.value;
    if (value !== undefined && !(value instanceof Uint8Array)) {
      throw new StorageError('storage_invalid_commit', 'a state value must be bytes or undefined', {
        index,
        valueType: typeof value,
      });
    }
    return { key: userKey(c.key), value };
  });
  // One write per change, in order (a later change to the same key must still win).
  assert(writes.length === changes.length, 'state store: a change lost while preparing the writes');
  return writes;
}
