// Key/value writes of a bulk load (a genesis import) sorted by key in bounded memory, so the store can
// take them in key order: appended at the end of its B-tree (LMDB's append mode), each page filled once,
// instead of inserted at random places of a file of gigabytes (docs/design/state.md "Bulk build").
//
// An external merge sort of variable-length records `key length u16 BE ‖ key ‖ value length u32 BE ‖ value
// ‖ tag u32 BE`: records fill a run buffer; a full run is sorted in memory (by key, then by the order they
// were added: a stable radix sort of the records' offsets on their key bytes, no object or string per
// record) and appended to one scratch file; sorted() merges the runs, reading each through a window.
// The tag is the caller's (a genesis import passes the line number), handed back with the record so
// equal keys can be told apart and reported. A set that fits in one run never touches the disk. Memory:
// one run buffer and its record offsets, plus a window per run while merging, whatever the number of records.

import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { assert } from '../util/assert.js';
import { mergeRuns, RunWindow } from '../util/run-merge.js';

/**
 * Bytes of records per run by default. Runs of 8 MiB (whose random reads while sorting stay in the
 * caches) took 6 % less CPU at 200,000 accounts but 10 % more at 1,000,000 (about 100 runs to merge
 * instead of 13): bench/README.md, the import's section of 1 Dec.
 */
export const KV_RUN_BYTES = 64 << 20;
/** Record offsets a run's first offsets array holds (doubled as the run grows). */
const OFFSETS_FIRST = 1 << 14;
/** Bytes read at a time from each run while merging (grown when one record is larger), at most. */
const WINDOW_BYTES = 256 << 10;
/** The windows of all runs together stay under this when there are many runs… */
const WINDOWS_BYTES = 64 << 20;
/** …but a window reads at least this much at a time. */
const WINDOW_BYTES_MIN = 64 << 10;

/** The window of each of `runs` runs while merging. */
export function mergeWindowBytes(runs: number): number {
  assert(Number.isSafeInteger(runs) && runs >= 1, `kv sort: a merge of ${runs} runs`);
  return Math.max(WINDOW_BYTES_MIN, Math.min(WINDOW_BYTES, Math.floor(WINDOWS_BYTES / Math.max(1, runs))));
}
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

/**
 * One run being merged: its window (util/run-merge.ts) and where its current record's key and value lie
 * in the window's buffer (offsets, not views: a view per record and a native comparison of views were a
 * large part of a merge of millions of records).
 */
class RunReader {
  private readonly w: RunWindow;
  keyAt = 0;
  keyLen = 0;
  valueAt = 0;
  valueLen = 0;
  tag = 0;
  /** The run's number: ties between equal keys keep the add order. */
  readonly seq: number;

  constructor(fd: number, start: number, end: number, seq: number, windowBytes: number) {
    assert(start < end, 'kv sort: an empty run');
    this.w = new RunWindow(fd, start, end, windowBytes, 'kv sort');
    this.seq = seq;
  }

  /** The buffer the current record lies in (valid until the next `next`). */
  get buf(): Buffer {
    // A constant text: read twice per comparison of the merge.
    assert(this.keyAt + this.keyLen <= this.w.buf.length, "kv sort: a record past its window's end");
    return this.w.buf;
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
    const a = w.at;
    this.keyAt = a + 2;
    this.keyLen = k;
    this.valueAt = a + 2 + k + 4;
    this.valueLen = v;
    this.tag = w.buf.readUInt32BE(a + size - 4);
    w.skip(size);
    return true;
  }
}

/** Compares bytes `a[ai, ai + an)` with `b[bi, bi + bn)`: negative, zero or positive (a prefix is below). */
function compareBytesAt(
  a: Uint8Array,
  ai: number,
  an: number,
  b: Uint8Array,
  bi: number,
  bn: number,
): number {
  assert(ai + an <= a.length && bi + bn <= b.length, 'kv sort: compared bytes past a buffer'); // per record
  const n = an < bn ? an : bn;
  for (let i = 0; i < n; i++) {
    const d = a[ai + i]! - b[bi + i]!;
    if (d !== 0) return d;
  }
  return an - bn;
}

/** Ranges at most this long are sorted by insertion instead of another radix pass. */
const INSERTION_MAX = 16;

/**
 * Compares the keys of the records at offsets `a` and `b` of `run` (`key length u16 BE ‖ key …`) from
 * key byte `from` on: negative, zero or positive as the bytes compare (a key that is a prefix of the
 * other is below it).
 */
function compareKeysFrom(run: Uint8Array, a: number, b: number, from: number): number {
  const ka = (run[a]! << 8) | run[a + 1]!;
  const kb = (run[b]! << 8) | run[b + 1]!;
  const n = ka < kb ? ka : kb;
  for (let i = from; i < n; i++) {
    const d = run[a + 2 + i]! - run[b + 2 + i]!;
    if (d !== 0) return d;
  }
  return ka - kb;
}

/** Key bytes `from..from+3` of the record at `o` as a big-endian u32, zeros past the key's end. */
function keyWord(run: Uint8Array, o: number, k: number, from: number): number {
  const at = o + 2 + from;
  const left = k - from;
  if (left >= 4) return ((run[at]! << 24) | (run[at + 1]! << 16) | (run[at + 2]! << 8) | run[at + 3]!) >>> 0;
  let w = 0;
  for (let i = 0; i < 4; i++) w = (w << 8) | (i < left ? run[at + i]! : 0);
  return w >>> 0;
}

/**
 * The arrays `sortByKey` works in, kept from run to run by a sorter: allocated (and their pages faulted
 * in) once for the largest run instead of once per run.
 */
export class SortScratch {
  lens = new Uint16Array(0);
  cache = new Uint32Array(0);
  tmpO = new Uint32Array(0);
  tmpL = new Uint16Array(0);
  tmpC = new Uint32Array(0);
  /** Makes room for `n` records. */
  fit(n: number): void {
    assert(Number.isSafeInteger(n) && n >= 0, `kv sort: room for ${n} records`);
    if (this.lens.length >= n) return;
    this.lens = new Uint16Array(n);
    this.cache = new Uint32Array(n);
    this.tmpO = new Uint32Array(n);
    this.tmpL = new Uint16Array(n);
    this.tmpC = new Uint32Array(n);
  }
}

/**
 * Sorts `offsets` (records of `run`, in the order added) by key bytes, stably: equal keys keep the
 * order they were added in. A most-significant-byte-first radix sort (one counting pass and one stable
 * distribution per key byte, 257 buckets: the key ended, or its byte), ranges of a few records finished
 * by insertion; a byte every key of a range shares costs one counting pass and no move. The passes read
 * each record's key length and four of its key bytes from arrays kept in the records' current order
 * (reloaded from the run every fourth byte), not the run itself: the run is read at random, once per
 * four bytes instead of twice per byte. Iterative (an explicit stack of ranges), so a long shared prefix
 * does not recurse.
 */
export function sortByKey(run: Uint8Array, offsets: Uint32Array, scratch = new SortScratch()): void {
  const n = offsets.length;
  if (n < 2) return;
  scratch.fit(n);
  assert(scratch.tmpC.length >= n, 'kv sort: scratch arrays smaller than the run');
  const lens = scratch.lens;
  const cache = scratch.cache;
  for (let i = 0; i < n; i++) {
    const o = offsets[i]!;
    const k = (run[o]! << 8) | run[o + 1]!;
    lens[i] = k;
    cache[i] = keyWord(run, o, k, 0);
  }
  const tmpO = scratch.tmpO;
  const tmpL = scratch.tmpL;
  const tmpC = scratch.tmpC;
  const counts = new Int32Array(257);
  // Ranges to sort: lo, hi, the key byte they are sorted from, the key byte `cache` starts at for them.
  const stack: number[] = [0, n, 0, 0];
  while (stack.length > 0) {
    let cached = stack.pop()!;
    let depth = stack.pop()!;
    const hi = stack.pop()!;
    const lo = stack.pop()!;
    if (hi - lo <= INSERTION_MAX) {
      for (let i = lo + 1; i < hi; i++) {
        const o = offsets[i]!;
        let j = i;
        while (j > lo && compareKeysFrom(run, offsets[j - 1]!, o, depth) > 0) {
          offsets[j] = offsets[j - 1]!;
          j--;
        }
        offsets[j] = o;
      }
      continue;
    }
    for (;;) {
      if (depth - cached === 4) {
        for (let i = lo; i < hi; i++) cache[i] = keyWord(run, offsets[i]!, lens[i]!, depth);
        cached = depth;
      }
      const shift = 24 - 8 * (depth - cached);
      assert(shift >= 0 && shift <= 24, 'kv sort: a key byte outside the cached four');
      counts.fill(0);
      for (let i = lo; i < hi; i++) counts[lens[i]! > depth ? ((cache[i]! >>> shift) & 0xff) + 1 : 0]!++;
      // Every key of the range ended: all equal, already in the order added.
      if (counts[0] === hi - lo) break;
      let only = false;
      for (let b = 1; b < 257; b++)
        if (counts[b] === hi - lo) {
          only = true;
          break;
        }
      if (only) {
        depth++; // one byte shared by the whole range: nothing moves
        continue;
      }
      // Bucket starts, then a stable distribution through the tmp arrays.
      let at = lo;
      for (let b = 0; b < 257; b++) {
        const c = counts[b]!;
        counts[b] = at;
        at += c;
      }
      assert(at === hi, 'kv sort: the buckets do not cover the range');
      for (let i = lo; i < hi; i++) {
        const to = counts[lens[i]! > depth ? ((cache[i]! >>> shift) & 0xff) + 1 : 0]!++;
        tmpO[to] = offsets[i]!;
        tmpL[to] = lens[i]!;
        tmpC[to] = cache[i]!;
      }
      offsets.set(tmpO.subarray(lo, hi), lo);
      lens.set(tmpL.subarray(lo, hi), lo);
      cache.set(tmpC.subarray(lo, hi), lo);
      // counts[b] is now bucket b's end. Bucket 0 (keys ended here) is sorted: its keys are equal.
      let start = counts[0]!;
      for (let b = 1; b < 257; b++) {
        const end = counts[b]!;
        if (end - start > 1) stack.push(start, end, depth + 1, cached);
        start = end;
      }
      break;
    }
  }
}

export class KeyValueSorter {
  private run: Buffer;
  private at = 0;
  /** Each record's offset in the run buffer, in the order added. */
  // A typed array grown by doubling, not a number[]: pushing millions of numbers onto an array cost
  // more than the records' copies (its growth and the collector's walks over it).
  private offsets = new Uint32Array(OFFSETS_FIRST);
  /** Records in the current run. */
  private count = 0;
  private total = 0;
  /** Byte ranges of the runs written to the scratch file. */
  private readonly runs: { start: number; end: number }[] = [];
  private fileEnd = 0;
  private fd: number | undefined;
  private readonly path: string;
  private done = false;
  private readonly scratch = new SortScratch();
  /** The spill's output buffer. */
  private out: Buffer | undefined;

  /** `dir` receives the scratch file (only when the records outgrow one run); it must exist. */
  constructor(
    dir: string,
    private readonly runBytes = KV_RUN_BYTES,
  ) {
    // Offsets are u32: a record starts below runBytes (or at 0, alone in its run).
    assert(
      Number.isSafeInteger(runBytes) && runBytes >= 64 && runBytes <= 0xffff_ffff,
      `kv sort: ${runBytes} bytes per run`,
    );
    this.run = Buffer.allocUnsafe(Math.min(runBytes, 1 << 20));
    this.path = join(dir, `kv-sort-${process.pid}-${++sorters}.tmp`);
  }

  /** Records added. */
  get size(): number {
    assert(this.total >= this.count, 'kv sort: more records in the run than added');
    return this.total;
  }

  add(key: Uint8Array, value: Uint8Array, tag = 0): void {
    assert(!this.done, 'kv sort: a record added after sorting');
    // Constant texts: a message built on every call would cost more than the record's copy.
    assert(key.length <= KEY_BYTES_MAX, 'kv sort: a key of more than 65,535 bytes');
    assert(Number.isInteger(tag) && tag >= 0 && tag <= 0xffff_ffff, 'kv sort: a tag outside u32');
    const size = recordBytes(key.length, value.length);
    if (this.at + size > this.runBytes && this.count > 0) this.spill();
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
    if (this.count === this.offsets.length) {
      const grown = new Uint32Array(2 * this.offsets.length);
      grown.set(this.offsets);
      this.offsets = grown;
    }
    this.offsets[this.count++] = a;
    b[a] = k >>> 8;
    b[a + 1] = k & 0xff;
    b.set(key, a + 2);
    a += 2 + k;
    putU32(b, a, v);
    b.set(value, a + 4);
    a += 4 + v;
    putU32(b, a, tag);
    this.at = a + 4;
    this.total++;
  }

  /** The run's record offsets in key order (equal keys in the order they were added). */
  private sortRun(): Uint32Array {
    assert(this.at <= 0xffff_ffff, 'kv sort: a run of more than 4 GiB');
    const order = this.offsets.subarray(0, this.count);
    sortByKey(this.run, order, this.scratch);
    return order;
  }

  private recordSize(offset: number): number {
    const b = this.run;
    const k = (b[offset]! << 8) | b[offset + 1]!;
    const at = offset + 2 + k;
    const size = recordBytes(k, ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0);
    // A constant text: a message built per record would cost more than the check.
    assert(offset + size <= this.at, "kv sort: a record runs past the run's end");
    return size;
  }

  private spill(): void {
    const order = this.sortRun();
    this.fd ??= openSync(this.path, 'w+', 0o600);
    const start = this.fileEnd;
    // Kept from spill to spill: a fresh megabyte per run would fault its pages in again.
    this.out ??= Buffer.allocUnsafe(OUT_BYTES);
    const out = this.out;
    const run = this.run;
    let used = 0;
    const drain = () => {
      assert(used <= out.length, `kv sort: ${used} bytes in a ${out.length}-byte output buffer`);
      let off = 0;
      while (off < used) off += writeSync(this.fd!, out, off, used - off, this.fileEnd + off);
      this.fileEnd += used;
      used = 0;
    };
    for (let i = 0; i < order.length; i++) {
      const o = order[i]!;
      const size = this.recordSize(o);
      if (used + size > out.length) drain();
      if (size > out.length) {
        let off = 0;
        while (off < size) off += writeSync(this.fd, run, o + off, size - off, this.fileEnd + off);
        this.fileEnd += size;
      } else {
        run.copy(out, used, o, o + size);
        used += size;
      }
    }
    drain();
    assert(this.fileEnd - start === this.at, `kv sort: spilled ${this.fileEnd - start} of ${this.at} bytes`);
    this.runs.push({ start, end: this.fileEnd });
    this.at = 0;
    this.count = 0;
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
        let last = -1;
        let lastK = 0;
        for (const o of this.sortRun()) {
          const k = b.readUInt16BE(o);
          const v = b.readUInt32BE(o + 2 + k);
          // The key against the one before (memcmp, no copy): equal means a key added twice.
          const c = last < 0 ? 1 : b.compare(b, last + 2, last + 2 + lastK, o + 2, o + 2 + k);
          assert(c >= 0, 'kv sort: a run sorted out of key order');
          yield {
            key: b.subarray(o + 2, o + 2 + k),
            value: b.subarray(o + 2 + k + 4, o + 2 + k + 4 + v),
            tag: b.readUInt32BE(o + 2 + k + 4 + v),
            same: c === 0,
          };
          last = o;
          lastK = k;
        }
        return;
      }
      if (this.count > 0) this.spill();
      this.run = Buffer.alloc(0);
      yield* this.merge();
    } finally {
      this.close();
    }
  }

  private *merge(): Generator<SortedKeyValue> {
    // Runs were written in add order: a run's number orders its equal keys before a later run's.
    const readers: RunReader[] = [];
    const window = mergeWindowBytes(this.runs.length);
    this.runs.forEach((r, n) => {
      const reader = new RunReader(this.fd!, r.start, r.end, n, window);
      if (reader.next()) readers.push(reader);
    });
    const less = (a: RunReader, b: RunReader) => {
      const c = compareBytesAt(a.buf, a.keyAt, a.keyLen, b.buf, b.keyAt, b.keyLen);
      return c < 0 || (c === 0 && a.seq < b.seq);
    };
    let emitted = 0;
    // The key handed out before (copied: the window moves on), to tell a key added twice.
    let last = Buffer.allocUnsafe(256);
    let lastK = -1;
    for (const r of mergeRuns(readers, less, (r) => r.next())) {
      const b = r.buf;
      const at = r.keyAt;
      const k = r.keyLen;
      const c = lastK < 0 ? 1 : compareBytesAt(b, at, k, last, 0, lastK);
      assert(c >= 0, 'kv sort: the merge gave a key below the one before');
      yield {
        key: b.subarray(at, at + k),
        value: b.subarray(r.valueAt, r.valueAt + r.valueLen),
        tag: r.tag,
        same: c === 0,
      };
      if (k > last.length) last = Buffer.allocUnsafe(k);
      for (let i = 0; i < k; i++) last[i] = b[at + i]!;
      lastK = k;
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
