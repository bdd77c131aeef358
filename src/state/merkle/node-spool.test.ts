import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { compareBytes, toHex } from '../../util/hex.js';
import { keyHash, valueHash } from './hash.js';
import { NodeSpool } from './node-spool.js';
import { buildSortedTree, type SortedLeaf } from './sorted-build.js';

const utf8 = new TextEncoder();

function leaves(n: number): SortedLeaf[] {
  return Array.from({ length: n }, (_, i) => ({
    kh: keyHash(utf8.encode(`\u0002acct-${i}@d`)),
    valueHash: valueHash(utf8.encode(`v${i}`)),
  })).sort((a, b) => compareBytes(a.kh, b.kh));
}

describe('node spool: the nodes of a bulk build in key order, by depth', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'torana-node-spool-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('gives every node and the root record once in store key order, from memory or the scratch file', async () => {
    for (const n of [0, 1, 2, 700]) {
      const written: { key: Uint8Array; value: Uint8Array }[] = [];
      buildSortedTree(leaves(n), 5, (key, value) => written.push({ key, value }));
      const want = written
        .map((w) => `${toHex(w.key)}:${toHex(w.value)}`)
        .sort((a, b) =>
          compareBytes(Buffer.from(a.split(':')[0]!, 'hex'), Buffer.from(b.split(':')[0]!, 'hex')),
        );
      for (const depthBytes of [1 << 20, 64, 300]) {
        const spool = new NodeSpool(dir, depthBytes);
        for (const w of written) spool.add(w.key, w.value);
        assert.equal(spool.size, written.length);
        const got: string[] = [];
        let files = 0;
        for (const r of spool.sorted()) {
          if (got.length === 0) files = (await readdir(dir)).length;
          got.push(`${toHex(r.key)}:${toHex(r.value)}`);
        }
        // A depth's nodes go to the file once they outgrow its buffer: never in 1 MiB here, always at 700.
        if (depthBytes === 1 << 20 || n === 700)
          assert.equal(files, n === 700 && depthBytes < 1 << 20 ? 1 : 0, `${n} leaves, ${depthBytes} bytes`);
        assert.deepEqual(got, want, `${n} leaves, ${depthBytes} bytes per depth`);
        assert.deepEqual(await readdir(dir), [], 'the scratch file is removed');
      }
    }
  });

  it('removes its scratch file when the iteration is left part way', async () => {
    const spool = new NodeSpool(dir, 64);
    buildSortedTree(leaves(50), 1, (key, value) => spool.add(key, value));
    assert.equal((await readdir(dir)).length, 1);
    for (const _ of spool.sorted()) break;
    assert.deepEqual(await readdir(dir), []);
  });
});
