// What the external sorts of a bulk load share (storage/kv-sort.ts, state/merkle/leaf-sort.ts): a sorted
// run read back from the scratch file through a window of bytes, and the merge of many runs with a binary
// heap. The sorts differ only in their record layout and their order; the window and the heap are here once.

import { readSync } from 'node:fs';
import { assert } from './assert.js';

/**
 * Bytes `start..end` of the file `fd` read forward through a window: `need(n)` makes the next `n` bytes
 * readable at `buf[at..at + n)` (moving the window on, grown when one record is larger than it),
 * `skip(n)` passes them. Views of `buf` are valid until the next `need`.
 */
export class RunWindow {
  buf: Buffer;
  /** The current position in `buf`. */
  at = 0;
  /** Bytes of `buf` read from the file, and the file offset of `buf[0]`. */
  private valid = 0;
  private base: number;

  constructor(
    private readonly fd: number,
    start: number,
    private readonly end: number,
    windowBytes: number,
    /** Names the sort in assertion texts. */
    private readonly label: string,
  ) {
    assert(start <= end && windowBytes > 0, `${label}: a run of bytes ${start}..${end}`);
    this.buf = Buffer.allocUnsafe(windowBytes);
    this.base = start;
  }

  /** Bytes of the run after the current position. */
  get left(): number {
    return this.end - this.base - this.at;
  }

  need(n: number): void {
    if (this.at + n <= this.valid) return;
    assert(n <= this.left, `${this.label}: a record of ${n} bytes runs past its run`);
    this.base += this.at;
    const keep = this.valid - this.at;
    if (n > this.buf.length) {
      const grown = Buffer.allocUnsafe(Math.max(n, this.buf.length * 2));
      this.buf.copy(grown, 0, this.at, this.valid);
      this.buf = grown;
    } else this.buf.copyWithin(0, this.at, this.valid);
    this.at = 0;
    this.valid = keep;
    const want = Math.min(this.buf.length, this.end - this.base);
    while (this.valid < want) {
      const got = readSync(this.fd, this.buf, this.valid, want - this.valid, this.base + this.valid);
      assert(got > 0, `${this.label}: the scratch file ended early`);
      this.valid += got;
    }
  }

  skip(n: number): void {
    // A constant text: skip runs once per record, a message built each time would cost more.
    assert(this.at + n <= this.valid, 'run merge: skipped past the window');
    this.at += n;
  }
}

/**
 * The runs' records in `less` order: yields the run holding the least current record, then calls
 * `next(run)` (false when that run is exhausted). Each run must hold its first record when passed.
 * Equal records come out in the order `less` gives ties (a sort breaks them by its run numbers).
 */
export function* mergeRuns<R>(
  runs: readonly R[],
  less: (a: R, b: R) => boolean,
  next: (run: R) => boolean,
): Generator<R> {
  const heap: R[] = [];
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      if (l >= heap.length) return;
      const c = l + 1 < heap.length && less(heap[l + 1]!, heap[l]!) ? l + 1 : l;
      if (!less(heap[c]!, heap[i]!)) return;
      const t = heap[c]!;
      heap[c] = heap[i]!;
      heap[i] = t;
      i = c;
    }
  };
  for (const r of runs) {
    heap.push(r);
    let i = heap.length - 1;
    while (i > 0 && less(heap[i]!, heap[(i - 1) >> 1]!)) {
      const p = (i - 1) >> 1;
      const t = heap[p]!;
      heap[p] = heap[i]!;
      heap[i] = t;
      i = p;
    }
  }
  while (heap.length > 0) {
    const r = heap[0]!;
    yield r;
    if (!next(r)) {
      heap[0] = heap[heap.length - 1]!;
      heap.pop();
    }
    down(0);
  }
}
