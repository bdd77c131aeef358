// Key/value writes of a bulk load (a genesis import) sorted by key in bounded memory, so the store can
// take them in key order: appended at the end of its B-tree (LMDB's append mode), each page filled once,
// instead of inserted at random places of a file of gigabytes (docs/design/state.md "Bulk build").
//
// An external merge sort of variable-length records `key length u16 BE ‖ key ‖ value length u32 BE ‖ value
// ‖ tag u32 BE`: records fill a run buffer; a full run is sorted in memory (by key, then by the order they
// were added) and appended to one scratch file; sorted() merges the runs, reading each through a window.
// The tag is the caller's (a genesis import passes the line number), handed back with the record so
// equal keys can be told apart and reported. A set that fits in one run never touches the disk. Memory:
// one run buffer and its keys, plus a window per run while merging, whatever the number of records.

import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { assert } from '../util/assert.js';
import { mergeRuns, RunWindow } from '../util/run-merge.js';

/** Bytes of records per run by default. */
export const KV_RUN_BYTES = 64 << 20;
/** Bytes read at a time from each run while merging (grown when one record is larger). */
const WINDOW_BYTES = 256 << 10;
/** Bytes written to the scratch file at a time. */
const OUT_BYTES = 1 << 20;
const KEY_BYTES_MAX = 0xffff;
/** Scratch files of sorters alive at once in this process get different names. */
let sorters = 0;

export interface SortedKeyValue {
  /** Views valid until the next step of the iteration. */
  key: Uint8Array;
  value: Uint8Array;
  /** The tag the record was added with. */
  tag: number;
  /** The key equals the previous record's (a key added twice). */
  same: boolean;
}

/** The record's size in the run buffer and the scratch file. */
const recordBytes = (key: number, value: number) => 2 + key + 4 + value + 4;

function putU32(b: Uint8Array, at: number, n: number): void {
  b[at] = n >>> 24;
  b[at + 1] = (n >>> 16) & 0xff;
  b[at + 2] = (n >>> 8) & 0xff;
  b[at + 3] = n & 0xff;
}

/** One run being merged: its window (util/run-merge.ts) and its current record. */
class RunReader {
  private readonly w: RunWindow;
  key: Buffer = Buffer.alloc(0);
  value: Buffer = Buffer.alloc(0);
  tag = 0;
  /** The current key as a latin1 string: code unit order is byte order. */
  order = '';
  /** The run's number: ties between equal keys keep the add order. */
  readonly seq: number;

  constructor(fd: number, start: number, end: number, seq: number) {
    assert(start < end, 'kv sort: an empty run');
    this.w = new RunWindow(fd, start, end, WINDOW_BYTES, 'kv sort');
    this.seq = seq;
  }

  /** Moves to the next record; false when the run is exhausted. */
  next(): boolean {
    const w = this.w;
    if (w.left === 0) return false;
    w.need(2);
    const k = (w.buf[w.at]! << 8) | w.buf[w.at + 1]!;
    w.need(2 + k + 4);
    const v = w.buf.readUInt32BE(w.at + 2 + k);
    const size = recordBytes(k, v);
    assert(size <= w.left, 'kv sort: a record runs past the end of its run');
    w.need(size);
    const b = w.buf;
    const a = w.at;
    this.key = b.subarray(a + 2, a + 2 + k);
    this.value = b.subarray(a + 2 + k + 4, a + 2 + k + 4 + v);
    this.tag = b.readUInt32BE(a + size - 4);
    this.order = b.toString('latin1', a + 2, a + 2 + k);
    w.skip(size);
    return true;
  }
}

export class KeyValueSorter {
  private run: Buffer;
  private at = 0;
  /** Each record's offset in the run buffer, and its key as a latin1 string (compared as code units). */
  private offsets: number[] = [];
  private keys: string[] = [];
  private total = 0;
  /** Byte ranges of the runs written to the scratch file. */
  private readonly runs: { start: number; end: number }[] = [];
  private fileEnd = 0;
  private fd: number | undefined;
  private readonly path: string;
  private done = false;

  /** `dir` receives the scratch file (only when the records outgrow one run); it must exist. */
  constructor(
    dir: string,
    private readonly runBytes = KV_RUN_BYTES,
  ) {
    assert(Number.isSafeInteger(runBytes) && runBytes >= 64, `kv sort: ${runBytes} bytes per run`);
    this.run = Buffer.allocUnsafe(Math.min(runBytes, 1 << 20));
    this.path = join(dir, `kv-sort-${process.pid}-${++sorters}.tmp`);
  }

  /** Records added. */
  get size(): number {
    assert(this.total >= this.offsets.length, 'kv sort: more records in the run than added');
    return this.total;
  }

  add(key: Uint8Array, value: Uint8Array, tag = 0): void {
    assert(!this.done, 'kv sort: a record added after sorting');
    // Constant texts: a message built on every call would cost more than the record's copy.
    assert(key.length <= KEY_BYTES_MAX, 'kv sort: a key of more than 65,535 bytes');
    assert(Number.isInteger(tag) && tag >= 0 && tag <= 0xffff_ffff, 'kv sort: a tag outside u32');
    const size = recordBytes(key.length, value.length);
    if (this.at + size > this.runBytes && this.offsets.length > 0) this.spill();
    if (this.at + size > this.run.length) {
      // A run that outgrows the first buffer gets its full size at once: one copy, not one per doubling.
      const grown = Buffer.allocUnsafe(Math.max(this.runBytes, this.at + size));
      this.run.copy(grown, 0, 0, this.at);
      this.run = grown;
    }
    const b = this.run;
    let a = this.at;
    const k = key.length;
    const v = value.length;
    this.offsets.push(a);
    b[a] = k >>> 8;
    b[a + 1] = k & 0xff;
    b.set(key, a + 2);
    this.keys.push(b.toString('latin1', a + 2, a + 2 + k));
    a += 2 + k;
    putU32(b, a, v);
    b.set(value, a + 4);
    a += 4 + v;
    putU32(b, a, tag);
    this.at = a + 4;
    this.total++;
  }

  /** The run's record numbers in key order (equal keys in the order they were added). */
  private sortRun(): number[] {
    const keys = this.keys;
    const order = new Array<number>(keys.length);
    for (let i = 0; i < order.length; i++) order[i] = i;
    assert(keys.length === this.offsets.length, 'kv sort: a key for every record of the run');
    order.sort((x, y) => {
      const a = keys[x]!;
      const b = keys[y]!;
      return a < b ? -1 : a > b ? 1 : x - y;
    });
    return order;
  }

  private recordSize(offset: number): number {
    const b = this.run;
    const k = b.readUInt16BE(offset);
    const size = recordBytes(k, b.readUInt32BE(offset + 2 + k));
    assert(offset + size <= this.at, `kv sort: a record at ${offset} runs past the run's ${this.at} bytes`);
    return size;
  }

  private spill(): void {
    const order = this.sortRun();
    this.fd ??= openSync(this.path, 'w+', 0o600);
    const start = this.fileEnd;
    const out = Buffer.allocUnsafe(OUT_BYTES);
    let used = 0;
    const drain = () => {
      assert(used <= out.length, `kv sort: ${used} bytes in a ${out.length}-byte output buffer`);
      let off = 0;
      while (off < used) off += writeSync(this.fd!, out, off, used - off, this.fileEnd + off);
      this.fileEnd += used;
      used = 0;
    };
    for (const i of order) {
      const o = this.offsets[i]!;
      const size = this.recordSize(o);
      if (used + size > out.length) drain();
      if (size > out.length) {
        let off = 0;
        while (off < size) off += writeSync(this.fd, this.run, o + off, size - off, this.fileEnd + off);
        this.fileEnd += size;
      } else {
        this.run.copy(out, used, o, o + size);
        used += size;
      }
    }
    drain();
    assert(this.fileEnd - start === this.at, `kv sort: spilled ${this.fileEnd - start} of ${this.at} bytes`);
    this.runs.push({ start, end: this.fileEnd });
    this.at = 0;
    this.offsets = [];
    this.keys = [];
  }

  /**
   * Every record added, ascending by key, equal keys in the order they were added. The scratch file is
   * removed when the iteration ends (or is left).
   */
  *sorted(): Generator<SortedKeyValue> {
    assert(!this.done, 'kv sort: sorted twice');
    this.done = true;
    try {
      if (this.runs.length === 0) {
        const b = this.run;
        let last: string | undefined;
        for (const i of this.sortRun()) {
          assert(last === undefined || this.keys[i]! >= last, 'kv sort: a run sorted out of key order');
          const o = this.offsets[i]!;
          const k = b.readUInt16BE(o);
          const v = b.readUInt32BE(o + 2 + k);
          yield {
            key: b.subarray(o + 2, o + 2 + k),
            value: b.subarray(o + 2 + k + 4, o + 2 + k + 4 + v),
            tag: b.readUInt32BE(o + 2 + k + 4 + v),
            same: this.keys[i] === last,
          };
          last = this.keys[i];
        }
        return;
      }
      if (this.offsets.length > 0) this.spill();
      this.run = Buffer.alloc(0);
      yield* this.merge();
    } finally {
      this.close();
    }
  }

  private *merge(): Generator<SortedKeyValue> {
    // Runs were written in add order: a run's number orders its equal keys before a later run's.
    const readers: RunReader[] = [];
    this.runs.forEach((r, n) => {
      const reader = new RunReader(this.fd!, r.start, r.end, n);
      if (reader.next()) readers.push(reader);
    });
    const less = (a: RunReader, b: RunReader) => a.order < b.order || (a.order === b.order && a.seq < b.seq);
    let emitted = 0;
    let last: string | undefined;
    for (const r of mergeRuns(readers, less, (r) => r.next())) {
      assert(last === undefined || r.order >= last, 'kv sort: the merge gave a key below the one before');
      yield { key: r.key, value: r.value, tag: r.tag, same: r.order === last };
      last = r.order;
      emitted++;
    }
    assert(emitted === this.total, `kv sort: merged ${emitted} of ${this.total} records`);
  }

  /** Removes the scratch file (also when the sort is abandoned). Idempotent. */
  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
    rmSync(this.path, { force: true });
  }
}
