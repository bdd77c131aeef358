import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { seededBytes } from '../../test/helpers/seeded-bytes.js';
import { compareBytes, toHex } from '../util/hex.js';
import { KeyValueSorter, mergeWindowBytes, SortScratch, sortByKey } from './kv-sort.js';

interface Rec {
  key: Uint8Array;
  value: Uint8Array;
  tag: number;
}

/** Keys of 1..40 bytes sharing prefixes (a few first bytes, as store keys do), values of 0..60 bytes. */
function records(n: number): Rec[] {
  const out: Rec[] = [];
  for (let i = 0; i < n; i++) {
    const r = seededBytes(i + 1, 2);
    const key = Uint8Array.of(0xf9 + (r[0]! % 3), ...seededBytes(i * 7 + 3, r[1]! % 40));
    out.push({ key, value: seededBytes(i * 11 + 5, i % 61), tag: i });
  }
  return out;
}

function drain(s: KeyValueSorter) {
  return [...s.sorted()].map((r) => ({
    key: toHex(r.key),
    value: toHex(r.value),
    tag: r.tag,
    same: r.same,
  }));
}

describe('key/value sort (external merge by key)', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'torana-kv-sort-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('gives every record once in key byte order, in one run or merged from many, and leaves no file', async () => {
    const recs = records(3_000);
    // Equal keys (a key added twice): kept, in the order added, the later ones marked.
    recs.push({ ...recs[17]!, value: Uint8Array.of(1), tag: 90_000 });
    recs.push({ ...recs[17]!, value: Uint8Array.of(2), tag: 90_001 });
    const want = recs
      .map((r, i) => ({ r, i }))
      .sort((a, b) => compareBytes(a.r.key, b.r.key) || a.i - b.i)
      .map(({ r }, n, all) => ({
        key: toHex(r.key),
        value: toHex(r.value),
        tag: r.tag,
        same: n > 0 && toHex(all[n - 1]!.r.key) === toHex(r.key),
      }));
    assert.ok(want.filter((w) => w.same).length >= 2);
    for (const runBytes of [1 << 24, 4096, 200]) {
      const s = new KeyValueSorter(dir, runBytes);
      for (const r of recs) s.add(r.key, r.value, r.tag);
      assert.equal(s.size, recs.length);
      if (runBytes < 1 << 20) assert.equal((await readdir(dir)).length, 1, 'runs spilled to one file');
      assert.deepEqual(drain(s), want, `runs of ${runBytes} bytes`);
      assert.deepEqual(await readdir(dir), [], 'the scratch file is removed');
    }
  });

  it('sorts a run by key bytes stably: long shared prefixes, keys prefixing others, many equal keys', () => {
    // Store keys share long prefixes (a table tag and an index name) before they differ.
    const prefix = Uint8Array.from({ length: 30 }, (_, i) => 0x41 + (i % 7));
    const keys: Uint8Array[] = [];
    for (let i = 0; i < 2_000; i++) {
      const tail = seededBytes(i + 17, i % 9);
      for (let j = 0; j < tail.length; j++) tail[j] = 0x30 + (tail[j]! % 4); // few values: deep ranges
      keys.push(Uint8Array.of(...prefix.subarray(0, 10 + (i % 21)), ...tail));
    }
    for (let i = 0; i < 40; i++) keys.push(prefix.slice(), prefix.subarray(0, 12).slice(), new Uint8Array(0));
    const run = new Uint8Array(keys.reduce((n, k) => n + 2 + k.length, 0));
    const offsets = new Uint32Array(keys.length);
    let at = 0;
    keys.forEach((k, i) => {
      offsets[i] = at;
      run[at] = k.length >> 8;
      run[at + 1] = k.length & 0xff;
      run.set(k, at + 2);
      at += 2 + k.length;
    });
    const want = [...offsets]
      .map((o, i) => ({ o, i }))
      .sort((a, b) => compareBytes(keys[a.i]!, keys[b.i]!) || a.i - b.i);
    sortByKey(run, offsets);
    assert.deepEqual(
      [...offsets],
      want.map((w) => w.o),
      'key order, equal keys in the order added',
    );
  });

  it('sorts run after run in the same scratch arrays, allocated once for the largest run', () => {
    const scratch = new SortScratch();
    let arrays: readonly unknown[] = [];
    for (const n of [3_000, 1_200, 3_000, 17]) {
      const keys = records(n).map((r) => r.key);
      const run = new Uint8Array(keys.reduce((m, k) => m + 2 + k.length, 0));
      const offsets = new Uint32Array(n);
      let at = 0;
      keys.forEach((k, i) => {
        offsets[i] = at;
        run[at + 1] = k.length;
        run.set(k, at + 2);
        at += 2 + k.length;
      });
      const want = [...offsets]
        .map((o, i) => ({ o, i }))
        .sort((a, b) => compareBytes(keys[a.i]!, keys[b.i]!) || a.i - b.i)
        .map((w) => w.o);
      sortByKey(run, offsets, scratch);
      assert.deepEqual([...offsets], want, `a run of ${n} records`);
      const now = [scratch.lens, scratch.cache, scratch.tmpO, scratch.tmpL, scratch.tmpC];
      if (arrays.length > 0)
        assert.ok(
          now.every((a, i) => a === arrays[i]),
          `arrays kept after ${n} records`,
        );
      arrays = now;
    }
  });

  it("bounds the merge's read windows together when there are many runs", () => {
    assert.equal(mergeWindowBytes(1), 256 << 10);
    assert.equal(mergeWindowBytes(256), 256 << 10);
    assert.equal(mergeWindowBytes(1024), 64 << 10);
    assert.ok(mergeWindowBytes(512) * 512 <= 64 << 20);
    assert.equal(mergeWindowBytes(100_000), 64 << 10, 'never below 64 KiB a window');
  });

  it('holds more records in one run than its first offsets array', () => {
    const recs = records(40_000);
    const want = recs
      .map((r, i) => ({ r, i }))
      .sort((a, b) => compareBytes(a.r.key, b.r.key) || a.i - b.i)
      .map(({ r }) => r.tag);
    const s = new KeyValueSorter(dir, 1 << 26);
    for (const r of recs) s.add(r.key, r.value, r.tag);
    assert.deepEqual(
      [...s.sorted()].map((r) => r.tag),
      want,
    );
  });

  it('merges records larger than its read window, and empty keys and values', async () => {
    const big = seededBytes(9, 600_000);
    const s = new KeyValueSorter(dir, 1024);
    s.add(Uint8Array.of(5), big, 1);
    s.add(new Uint8Array(0), new Uint8Array(0), 2);
    s.add(Uint8Array.of(4, 0), Uint8Array.of(7), 3);
    s.add(Uint8Array.of(6), big.subarray(0, 300_000), 4);
    const got = drain(s);
    assert.deepEqual(
      got.map((g) => [g.key, g.tag]),
      [
        ['', 2],
        ['0400', 3],
        ['05', 1],
        ['06', 4],
      ],
    );
    assert.equal(got[2]!.value, toHex(big));
    assert.equal(got[3]!.value, toHex(big.subarray(0, 300_000)));
  });

  it('removes its scratch file when the merge is left part way', async () => {
    const s = new KeyValueSorter(dir, 256);
    for (const r of records(500)) s.add(r.key, r.value, r.tag);
    for (const _ of s.sorted()) break;
    assert.deepEqual(await readdir(dir), []);
  });
});
