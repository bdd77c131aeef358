// A block store in memory (block-store.ts), for the simulator and tests: the same contract as the
// on-disk BlockLog (consecutive heights, hash chaining, size limit, one append at a time, refusal after
// a failed write) over a `MemoryBlockMedium`, with the fault model of memory-faults.ts.

import { assert } from '../util/assert.js';
import { type BlockLogOptions, checkBatch, resolveBlockLogOptions } from './block-log-checks.js';
import type { BlockRecord, BlockStore, BlockStoreOpenReport } from './block-store.js';
import { StorageError } from './errors.js';
import { type MemoryFaults, MemoryMedium, writeThrough } from './memory-faults.js';
import { HASH_BYTES } from './record.js';

/** The simulated disk of one block store: the durable records, surviving crashes and reopens. */
export class MemoryBlockMedium extends MemoryMedium {
  readonly records: BlockRecord[] = [];
}

function copyRecord(r: BlockRecord): BlockRecord {
  // Only records the append checks accepted are held (and handed out).
  assert(
    r.hash.length === HASH_BYTES && r.prevHash.length === HASH_BYTES,
    `memory block store: record ${r.height} with ${r.hash.length}/${r.prevHash.length}-byte hashes`,
  );
  return {
    height: r.height,
    hash: new Uint8Array(r.hash),
    prevHash: new Uint8Array(r.prevHash),
    bytes: new Uint8Array(r.bytes),
  };
}

export class MemoryBlockStore implements BlockStore {
  private appendTail: Promise<void> = Promise.resolve();
  private closed = false;
  private failure: unknown;
  private readonly epoch: number;
  private readonly recordBytesMax: number;

  private constructor(
    private readonly medium: MemoryBlockMedium,
    private readonly faults: MemoryFaults,
    opts: Partial<Pick<BlockLogOptions, 'recordBytesMax'>>,
  ) {
    this.epoch = medium.epoch;
    this.recordBytesMax = resolveBlockLogOptions(opts).recordBytesMax;
    // The medium holds heights 1..n, slot i holding height i + 1.
    const n = medium.records.length;
    assert(n === 0 || medium.records[n - 1]!.height === n, `memory block store: ${n} records on the medium`);
  }

  static open(
    medium: MemoryBlockMedium = new MemoryBlockMedium(),
    opts: { faults?: MemoryFaults; recordBytesMax?: number } = {},
  ): { store: MemoryBlockStore; report: BlockStoreOpenReport } {
    const extra = opts.recordBytesMax === undefined ? {} : { recordBytesMax: opts.recordBytesMax };
    const store = new MemoryBlockStore(medium, opts.faults ?? {}, extra);
    return { store, report: { height: medium.records.length, truncatedTailBytes: 0 } };
  }

  get height(): number {
    const n = this.medium.records.length;
    // Heights are consecutive from 1: the last record's height is the count.
    assert(n === 0 || this.medium.records[n - 1]!.height === n, `memory block store: ${n} records`);
    return n;
  }

  get tipHash(): Uint8Array | undefined {
    const last = this.medium.records.at(-1);
    assert(
      last === undefined || last.height === this.medium.records.length,
      `memory block store: the last of ${this.medium.records.length} records is ${last?.height}`,
    );
    return last === undefined ? undefined : new Uint8Array(last.hash);
  }

  append(records: readonly BlockRecord[]): Promise<void> {
    assert(Array.isArray(records), 'memory block store: append of a non-list');
    const run = this.appendTail.then(() => this.appendNow(records));
    this.appendTail = run.catch(() => undefined);
    return run;
  }

  private async appendNow(records: readonly BlockRecord[]): Promise<void> {
    this.checkOpen();
    if (this.failure !== undefined)
      throw new StorageError('storage_failed', 'an earlier write failed; reopen the block store to recover');
    if (records.length === 0) return;
    checkBatch(records, this.height, this.tipHash ?? new Uint8Array(HASH_BYTES), this.recordBytesMax);
    const copies = records.map(copyRecord);
    try {
      await writeThrough(this.medium, this.faults, 'block-append', copies[0]!.height, () => {
        // Appends are serialised and a crash fails the write before it applies: the medium is where
        // the batch was checked against.
        assert(
          this.medium.records.length + 1 === copies[0]!.height,
          `memory block store: batch from ${copies[0]!.height} onto ${this.medium.records.length} records`,
        );
        this.medium.records.push(...copies);
      });
    } catch (e) {
      this.failure = e;
      throw e;
    }
    // The tip moved to the batch's last record, exactly.
    assert(
      this.medium.records.length === copies.at(-1)!.height,
      `memory block store: ${this.medium.records.length} records after a batch ending at ${copies.at(-1)!.height}`,
    );
  }

  async read(height: number): Promise<BlockRecord | undefined> {
    const r = this.readSync(height);
    assert(r === undefined || r.height === height, `memory block store: read ${height} gave ${r?.height}`);
    return r;
  }

  readSync(height: number): BlockRecord | undefined {
    this.checkOpen();
    if (!Number.isSafeInteger(height) || height < 1 || height > this.height) return undefined;
    const record = this.medium.records[height - 1]!;
    assert(record.height === height, `memory block store: slot ${height} holds record ${record.height}`);
    return copyRecord(record);
  }

  async *iterate(fromHeight: number, toHeight?: number): AsyncIterable<BlockRecord> {
    this.checkOpen();
    if (!Number.isSafeInteger(fromHeight) || (toHeight !== undefined && !Number.isSafeInteger(toHeight))) {
      throw new StorageError('storage_invalid_height', 'iterate needs integer heights', {
        fromHeight,
        toHeight,
      });
    }
    const last = Math.min(toHeight ?? this.height, this.height);
    for (let h = Math.max(1, fromHeight); h <= last; h++) {
      const record = this.medium.records[h - 1];
      assert(record?.height === h, `memory block store: slot ${h} holds record ${record?.height}`);
      yield copyRecord(record);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const height = this.medium.records.length;
    await this.appendTail;
    // Appends queued before the close may finish; none removes a record.
    assert(this.medium.records.length >= height, 'memory block store: records lost at close');
  }

  private checkOpen(): void {
    if (this.closed) throw new StorageError('storage_closed', 'the block store is closed');
    if (this.medium.epoch !== this.epoch)
      throw new StorageError('storage_closed', 'the block store was lost in a crash; reopen it');
  }
}
