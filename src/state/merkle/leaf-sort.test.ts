import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { compareBytes, toHex } from '../../util/hex.js';
import { keyHash, valueHash } from './hash.js';
import { LeafSorter } from './leaf-sort.js';

const utf8 = new TextEncoder();

function leaf(i: number) {
  return { kh: keyHash(utf8.encode(`k${i}`)), vh: valueHash(utf8.encode(`v${i}`)) };
}

/** Leaves whose key hashes share their first bytes (one bucket of the in-memory sort holds them all). */
function crowded(i: number) {
  const kh = keyHash(utf8.encode(`c${i}`));
  kh[0] = 0xab;
  kh[1] = 0xcd;
  kh[2] = i % 3;
  return { kh, vh: valueHash(utf8.encode(`w${i}`)) };
}

describe('leaf sort (external merge by key hash)', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'torana-leaf-sort-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('gives every leaf once in key-hash order, in one run or merged from many, and leaves no file', async () => {
    const leaves = [
      ...Array.from({ length: 3_000 }, (_, i) => leaf(i)),
      ...Array.from({ length: 200 }, (_, i) => crowded(i)),
    ];
    const want = [...leaves]
      .sort((a, b) => compareBytes(a.kh, b.kh))
      .map((l) => `${toHex(l.kh)}:${toHex(l.vh)}`);
    for (const run of [1, 7, 500, 3_199, 3_200, 1 << 16]) {
      const sorter = new LeafSorter(dir, run);
      for (const l of leaves) sorter.add(l.kh, l.vh);
      assert.equal(sorter.size, leaves.length);
      const got: string[] = [];
      let files = 0;
      for (const s of sorter.sorted()) {
        if (got.length === 0) files = (await readdir(dir)).length;
        got.push(`${toHex(s.kh)}:${toHex(s.valueHash)}`);
      }
      assert.equal(files, run < leaves.length ? 1 : 0, `${run} per run: the scratch file`);
      assert.deepEqual(got, want, `${run} leaves per run`);
      assert.deepEqual(await readdir(dir), [], `${run} per run: the scratch file is removed`);
    }
  });

  it('removes its scratch file when the sort is abandoned, and sorts an empty set', async () => {
    const sorter = new LeafSorter(dir, 4);
    for (let i = 0; i < 10; i++) sorter.add(leaf(i).kh, leaf(i).vh);
    assert.equal((await readdir(dir)).length, 1);
    for (const _ of sorter.sorted()) break;
    assert.deepEqual(await readdir(dir), []);
    assert.deepEqual([...new LeafSorter(dir, 4).sorted()], []);
  });
});
