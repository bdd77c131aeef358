// A state backend in memory (block-store.ts), for the simulator and tests: the same contract as the
// LMDB StateStore (atomic commit of a block's changes with the applied height, sorted prefix scans,
// one write at a time, refusal after a failed write) over a `MemoryStateMedium`, with the fault model
// of memory-faults.ts. Keys are held as lower-case hex, whose order is the order of the key bytes.

import { assert } from '../util/assert.js';
import type { StateBackend, StateChange } from './block-store.js';
import { StorageError } from './errors.js';
import { type MemoryFaults, MemoryMedium, writeThrough } from './memory-faults.js';
import { HASH_BYTES } from './record.js';
import { STATE_KEY_BYTES_MAX } from './state-keys.js';

/** The simulated disk of one state backend: durable entries and applied height, surviving crashes. */
export class MemoryStateMedium extends MemoryMedium {
  readonly entries = new Map<string, Uint8Array>();
  height = 0;
  blockHash: Uint8Array | undefined;
}

const utf8 = new TextEncoder();

function keyBytes(key: Uint8Array | string): Uint8Array {
  const raw = typeof key === 'string' ? utf8.encode(key) : key;
  if (raw.length > STATE_KEY_BYTES_MAX) {
    throw new StorageError('storage_invalid_key', `state keys are at most ${STATE_KEY_BYTES_MAX} bytes`, {
      keyBytes: raw.length,
      stateKeyBytesMax: STATE_KEY_BYTES_MAX,
    });
  }
  return raw;
}

function hexOf(bytes: Uint8Array): string {
  const hex = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
  // Two digits per byte: hex order is byte order only for keys of whole bytes.
  assert(hex.length === bytes.length * 2, 'memory state backend: a key of partial bytes');
  return hex;
}

export class MemoryStateBackend implements StateBackend {
  private writeTail: Promise<void> = Promise.resolve();
  private closed = false;
  private failure: unknown;
  private readonly epoch: number;

  private constructor(
    private readonly medium: MemoryStateMedium,
    private readonly faults: MemoryFaults,
  ) {
    this.epoch = medium.epoch;
    // The applied block's hash is recorded exactly when a block was applied.
    assert(
      (medium.height === 0) === (medium.blockHash === undefined),
      `memory state backend: applied height ${medium.height} with${medium.blockHash === undefined ? 'out' : ''} a block hash`,
    );
  }

  static open(
    medium: MemoryStateMedium = new MemoryStateMedium(),
    opts: { faults?: MemoryFaults } = {},
  ): MemoryStateBackend {
    return new MemoryStateBackend(medium, opts.faults ?? {});
  }

  appliedHeight(): number {
    assert(
      Number.isSafeInteger(this.medium.height) && this.medium.height >= 0,
      `memory state backend: applied height ${this.medium.height}`,
    );
    return this.medium.height;
  }

  appliedBlockHash(): Uint8Array | undefined {
    const h = this.medium.blockHash;
    assert(
      h === undefined || h.length === HASH_BYTES,
      `memory state backend: a ${h?.length}-byte block hash`,
    );
    return h === undefined ? undefined : new Uint8Array(h);
  }

  commit(height: number, blockHash: Uint8Array, changes: readonly StateChange[]): Promise<void> {
    assert(Array.isArray(changes), 'memory state backend: changes are not a list');
    const run = this.writeTail.then(() => this.commitNow(height, blockHash, changes));
    this.writeTail = run.catch(() => undefined);
    return run;
  }

  private async commitNow(
    height: number,
    blockHash: Uint8Array,
    changes: readonly StateChange[],
  ): Promise<void> {
    this.checkOpen();
    if (this.failure !== undefined)
      throw new StorageError('storage_failed', 'an earlier write failed; reopen the state backend');
    const expected = this.medium.height + 1;
    if (height !== expected)
      throw new StorageError('storage_invalid_height', `commit height ${height}, expected ${expected}`, {
        height,
        expectedHeight: expected,
      });
    if (blockHash.length !== HASH_BYTES)
      throw new StorageError('storage_invalid_commit', `block hash must be ${HASH_BYTES} bytes`, {
        bytes: blockHash.length,
      });
    // Keys checked and values copied before the write: a bad key never applies half a commit.
    const writes = changes.map((c) => ({
      key: hexOf(keyBytes(c.key)),
      value: c.value === undefined ? undefined : new Uint8Array(c.value),
    }));
    const hash = new Uint8Array(blockHash);
    try {
      await writeThrough(this.medium, this.faults, 'state-commit', height, () => {
        // Commits are serialised and a crash fails the write before it applies.
        assert(
          this.medium.height === height - 1,
          `memory state backend: commit ${height} onto height ${this.medium.height}`,
        );
        for (const w of writes) {
          if (w.value === undefined) this.medium.entries.delete(w.key);
          else this.medium.entries.set(w.key, w.value);
        }
        this.medium.height = height;
        this.medium.blockHash = hash;
      });
    } catch (e) {
      this.failure = e;
      throw e;
    }
    // Durable: the medium records this very commit as applied.
    assert(
      this.medium.height === height && this.medium.blockHash === hash,
      `memory state backend: at ${this.medium.height} after committing ${height}`,
    );
  }

  get(key: Uint8Array | string): Uint8Array | undefined {
    this.checkOpen();
    const v = this.medium.entries.get(hexOf(keyBytes(key)));
    if (v === undefined) return undefined;
    const copy = new Uint8Array(v);
    // A reader gets a copy: writing into it must not change the stored value.
    assert(copy.buffer !== v.buffer, 'memory state backend: a stored value handed out');
    return copy;
  }

  *entries(
    prefix: Uint8Array | string = new Uint8Array(0),
  ): Iterable<{ key: Uint8Array; value: Uint8Array }> {
    this.checkOpen();
    const p = hexOf(keyBytes(prefix));
    const keys: string[] = [];
    for (const k of this.medium.entries.keys()) if (k.startsWith(p)) keys.push(k);
    keys.sort();
    // Sorted and repeat-free: the scan yields keys in strictly increasing byte order, as LMDB does.
    for (let i = 1; i < keys.length; i++) assert(keys[i - 1]! < keys[i]!, 'memory state backend: scan order');
    for (const k of keys) {
      const value = this.medium.entries.get(k);
      if (value !== undefined)
        yield { key: new Uint8Array(Buffer.from(k, 'hex')), value: new Uint8Array(value) };
    }
  }

  /** Entries with start ≤ key < end, ascending by key bytes, or descending with `reverse`. */
  *range(
    start: Uint8Array,
    end: Uint8Array,
    reverse: boolean,
  ): Iterable<{ key: Uint8Array; value: Uint8Array }> {
    this.checkOpen();
    const lo = hexOf(keyBytes(start));
    const hi = hexOf(keyBytes(end));
    const keys = [...this.medium.entries.keys()].filter((k) => k >= lo && k < hi).sort();
    if (reverse) keys.reverse();
    for (const k of keys) {
      const value = this.medium.entries.get(k);
      if (value !== undefined)
        yield { key: new Uint8Array(Buffer.from(k, 'hex')), value: new Uint8Array(value) };
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const height = this.medium.height;
    await this.writeTail;
    // Writes queued before the close may finish; none can start after it.
    assert(this.medium.height >= height, 'memory state backend: the applied height went back at close');
  }

  private checkOpen(): void {
    if (this.closed) throw new StorageError('storage_closed', 'the state backend is closed');
    if (this.medium.epoch !== this.epoch)
      throw new StorageError('storage_closed', 'the state backend was lost in a crash; reopen it');
  }
}
