// The leaves of a bulk build (sorted-build.ts) sorted by key hash in bounded memory: an external merge
// sort of fixed 64-byte records (key hash ‖ value hash). Leaves fill a run buffer of `runLeaves`
// records; a full run is sorted in memory (a counting sort on the first two bytes, then insertion sort
// inside each bucket: key hashes are uniform, so buckets hold a handful of records) and appended to one
// scratch file; sorted() merges the runs, reading each through a small window. A set that fits in one
// run never touches the disk. Memory: two run buffers plus one window per run, whatever the count.

import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { assert } from '../../util/assert.js';
import { mergeRuns, RunWindow } from '../../util/run-merge.js';
import { TREE_HASH_BYTES } from './hash.js';
import type { SortedLeaf } from './sorted-build.js';

const RECORD = 2 * TREE_HASH_BYTES;
/** Records per run by default: 2^19 × 64 bytes = 32 MiB (and as much again while sorting it). */
export const LEAF_RUN_RECORDS = 1 << 19;
/** Records read at a time from each run while merging. */
const WINDOW_RECORDS = 1024;
const BUCKETS = 1 << 16;
/** Scratch files of sorters alive at once in this process get different names. */
let sorters = 0;

/** Compares the key hashes of the records at byte `x` of `a` and `y` of `b`, from byte `from` on. */
function compareAt(a: Uint8Array, x: number, b: Uint8Array, y: number, from: number): number {
  for (let k = from; k < TREE_HASH_BYTES; k++) {
    const d = a[x + k]! - b[y + k]!;
    if (d !== 0) return d;
  }
  return 0;
}

const RECORD_WORDS = RECORD / 4;

/** `b` seen as 32-bit words: a view of the same memory (the sorter's buffers start aligned). */
function words(b: Uint8Array): Uint32Array {
  assert(b.byteOffset % 4 === 0 && b.length % 4 === 0, 'leaf sort: a record buffer not aligned to 4 bytes');
  return new Uint32Array(b.buffer, b.byteOffset, b.length / 4);
}

/** Sorts the first `n` records of `src` by key hash into `dst` (same size). */
export function sortRecords(src: Uint8Array, dst: Uint8Array, n: number, counts: Uint32Array): void {
  counts.fill(0);
  for (let i = 0; i < n; i++) counts[(src[i * RECORD]! << 8) | src[i * RECORD + 1]!]!++;
  let at = 0;
  for (let b = 0; b < BUCKETS; b++) {
    const c = counts[b]!;
    counts[b] = at;
    at += c;
  }
  // Records are copied as 32-bit words (no view per record): the buffers start at 0 of their own memory.
  const s32 = words(src);
  const d32 = words(dst);
  for (let i = 0; i < n; i++) {
    const b = (src[i * RECORD]! << 8) | src[i * RECORD + 1]!;
    const from = i * RECORD_WORDS;
    const to = counts[b]! * RECORD_WORDS;
    for (let w = 0; w < RECORD_WORDS; w++) d32[to + w] = s32[from + w]!;
    counts[b]!++;
  }
  // Each bucket now ends where the next begins (counts[b] is bucket b's end): insertion sort inside.
  const tmp = new Uint8Array(RECORD);
  let start = 0;
  for (let b = 0; b < BUCKETS; b++) {
    const end = counts[b]!;
    for (let i = start + 1; i < end; i++) {
      if (compareAt(dst, (i - 1) * RECORD, dst, i * RECORD, 2) <= 0) continue;
      tmp.set(dst.subarray(i * RECORD, (i + 1) * RECORD));
      let j = i;
      while (j > start && compareAt(dst, (j - 1) * RECORD, tmp, 0, 2) > 0) {
        dst.copyWithin(j * RECORD, (j - 1) * RECORD, j * RECORD);
        j--;
      }
      dst.set(tmp, j * RECORD);
    }
    start = end;
  }
}

export class LeafSorter {
  private run: Uint8Array;
  private spare: Uint8Array;
  private readonly counts = new Uint32Array(BUCKETS);
  private n = 0;
  private total = 0;
  /** Record ranges of the runs written to the scratch file. */
  private readonly runs: { start: number; end: number }[] = [];
  private fd: number | undefined;
  private readonly path: string;
  private done = false;

  /** `dir` receives the scratch file (only when the leaves outgrow one run); it must exist. */
  constructor(dir: string, runRecords = LEAF_RUN_RECORDS) {
    assert(Number.isSafeInteger(runRecords) && runRecords >= 1, `leaf sort: ${runRecords} records per run`);
    this.run = new Uint8Array(runRecords * RECORD);
    this.spare = new Uint8Array(0);
    this.path = join(dir, `leaf-sort-${process.pid}-${++sorters}.tmp`);
  }

  get size(): number {
    return this.total;
  }

  add(kh: Uint8Array, vh: Uint8Array): void {
    assert(!this.done, 'leaf sort: a leaf added after sorting');
    assert(
      kh.length === TREE_HASH_BYTES && vh.length === TREE_HASH_BYTES,
      'leaf sort: a hash of the wrong size',
    );
    if (this.n * RECORD === this.run.length) this.spill();
    this.run.set(kh, this.n * RECORD);
    this.run.set(vh, this.n * RECORD + TREE_HASH_BYTES);
    this.n++;
    this.total++;
  }

  /** Sorts the run in memory into the spare buffer (allocated on first use). */
  private sortRun(): Uint8Array {
    if (this.spare.length !== this.run.length) this.spare = new Uint8Array(this.run.length);
    sortRecords(this.run, this.spare, this.n, this.counts);
    return this.spare;
  }

  private spill(): void {
    const sorted = this.sortRun();
    this.fd ??= openSync(this.path, 'w+', 0o600);
    const start = this.runs.length === 0 ? 0 : this.runs[this.runs.length - 1]!.end;
    const bytes = this.n * RECORD;
    let off = 0;
    while (off < bytes) off += writeSync(this.fd, sorted, off, bytes - off, start * RECORD + off);
    this.runs.push({ start, end: start + this.n });
    this.n = 0;
  }

  /**
   * Every leaf added, ascending by key hash, once. The yielded hashes are views valid until the next
   * step; the scratch file is removed when the iteration ends (or is left).
   */
  *sorted(): Generator<SortedLeaf> {
    assert(!this.done, 'leaf sort: sorted twice');
    this.done = true;
    try {
      if (this.runs.length === 0) {
        const sorted = this.sortRun();
        for (let i = 0; i < this.n; i++)
          yield {
            kh: sorted.subarray(i * RECORD, i * RECORD + TREE_HASH_BYTES),
            valueHash: sorted.subarray(i * RECORD + TREE_HASH_BYTES, (i + 1) * RECORD),
          };
        return;
      }
      if (this.n > 0) this.spill();
      // The run buffers are not needed while merging.
      this.run = new Uint8Array(0);
      this.spare = new Uint8Array(0);
      yield* this.merge();
    } finally {
      this.close();
    }
  }

  private *merge(): Generator<SortedLeaf> {
    const windows: RunWindow[] = [];
    for (const r of this.runs) {
      const w = new RunWindow(
        this.fd!,
        r.start * RECORD,
        r.end * RECORD,
        WINDOW_RECORDS * RECORD,
        'leaf sort',
      );
      w.need(RECORD);
      windows.push(w);
    }
    const less = (a: RunWindow, b: RunWindow) => compareAt(a.buf, a.at, b.buf, b.at, 0) < 0;
    const next = (w: RunWindow) => {
      w.skip(RECORD);
      if (w.left === 0) return false;
      w.need(RECORD);
      return true;
    };
    let emitted = 0;
    for (const w of mergeRuns(windows, less, next)) {
      yield {
        kh: w.buf.subarray(w.at, w.at + TREE_HASH_BYTES),
        valueHash: w.buf.subarray(w.at + TREE_HASH_BYTES, w.at + RECORD),
      };
      emitted++;
    }
    assert(emitted === this.total, `leaf sort: merged ${emitted} of ${this.total} leaves`);
  }

  /** Removes the scratch file (also when the sort is abandoned). Idempotent. */
  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
    rmSync(this.path, { force: true });
  }
}
