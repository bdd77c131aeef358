// What the external sorts of a bulk load share (storage/kv-sort.ts, state/merkle/leaf-sort.ts): a sorted
// run read back from the scratch file through a window of bytes, and the merge of many runs (a tournament
// of losers). The sorts differ only in their record layout and their order; the window and the merge are
// here once.

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
 *
 * A tournament of losers: each inner node of a binary tree over the runs keeps the run that lost the
 * match played there, the overall winner is yielded, and after it moves on only the matches on its path
 * to the root are played again: ⌈log2 runs⌉ calls of `less` per record (a binary heap needs two per
 * level). At millions of records and tens of runs the comparisons were most of a merge's cost.
 */
export function* mergeRuns<R>(
  runs: readonly R[],
  less: (a: R, b: R) => boolean,
  next: (run: R) => boolean,
): Generator<R> {
  const k = runs.length;
  if (k === 0) return;
  if (k === 1) {
    const r = runs[0]!;
    do yield r;
    while (next(r));
    return;
  }
  const live = new Uint8Array(k).fill(1);
  // Whether run i's record comes before run j's: an exhausted run comes after every other.
  const beats = (i: number, j: number): boolean =>
    live[i] === 0 ? false : live[j] === 0 || less(runs[i]!, runs[j]!);
  // Node n (1..k-1) has children 2n and 2n+1; node k+i is run i. losers[0] is the winner.
  const losers = new Int32Array(k);
  const play = (n: number): number => {
    if (n >= k) return n - k;
    const a = play(2 * n);
    const b = play(2 * n + 1);
    if (beats(b, a)) {
      losers[n] = a;
      return b;
    }
    losers[n] = b;
    return a;
  };
  let w = play(1);
  while (live[w] === 1) {
    yield runs[w]!;
    if (!next(runs[w]!)) live[w] = 0;
    for (let n = (w + k) >> 1; n >= 1; n >>= 1) {
      const l = losers[n]!;
      if (beats(l, w)) {
        losers[n] = w;
        w = l;
      }
    }
  }
}
