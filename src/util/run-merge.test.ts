import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mergeRuns } from './run-merge.js';

/** A sorted run of numbers read one at a time, as the sorts' run readers are. */
class Run {
  at = 0;
  constructor(
    readonly values: number[],
    readonly seq: number,
  ) {}
  get head(): number {
    return this.values[this.at]!;
  }
}

/** `k` runs of `per` numbers each, ascending, from a deterministic generator (xorshift). */
function runsOf(k: number, per: number, seed: number): Run[] {
  let x = seed | 1;
  const rnd = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) % 1000;
  };
  return Array.from({ length: k }, (_, seq) => {
    const values = Array.from({ length: per - (seq % 3) }, rnd).sort((a, b) => a - b);
    return new Run(values, seq);
  });
}

function merge(runs: Run[]): { out: [number, number][]; compares: number } {
  let compares = 0;
  const less = (a: Run, b: Run) => {
    compares++;
    return a.head < b.head || (a.head === b.head && a.seq < b.seq);
  };
  const next = (r: Run) => ++r.at < r.values.length;
  const out: [number, number][] = [];
  for (const r of mergeRuns(runs, less, next)) out.push([r.head, r.seq]);
  return { out, compares };
}

describe('mergeRuns', () => {
  it('gives every record in order, ties by the order less gives them, for 0 to 37 runs', () => {
    for (let k = 0; k <= 37; k++) {
      const runs = runsOf(k, 40, k + 1);
      const want = runs
        .flatMap((r) => r.values.map((v): [number, number] => [v, r.seq]))
        .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      assert.deepEqual(merge(runs).out, want, `${k} runs`);
    }
  });

  it('calls less at most ⌈log2 runs⌉ times per record once the runs are first ranked', () => {
    for (const k of [2, 3, 8, 33, 100]) {
      const per = 200;
      const runs = runsOf(k, per, 7 * k);
      const records = runs.reduce((n, r) => n + r.values.length, 0);
      const { compares } = merge(runs);
      // The first ranking plays k - 1 matches; each record yielded replays one path to the root.
      const bound = k - 1 + records * Math.ceil(Math.log2(k));
      assert.ok(compares <= bound, `${k} runs: ${compares} comparisons for ${records} records (≤ ${bound})`);
    }
  });
});
