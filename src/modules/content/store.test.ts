import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { describe, it } from 'node:test';
import { ContentStore, ContentStoreFullError } from './store.js';

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

describe('content store', () => {
  it('keeps bytes by digest, once; reads ranges; counts against its limit; reopens with its count', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'content-store-'));
    try {
      const s = await ContentStore.open(dir, 20, { fsync: false });
      const a = new TextEncoder().encode('hello, world');
      assert.equal(await s.put(sha(a), a), true);
      assert.equal(await s.put(sha(a), a), false, 'already held');
      assert.equal(s.bytesUsed(), 12);
      assert.equal(await text(s.read(sha(a), 7, 11)), 'world');
      const b = new TextEncoder().encode('123456789');
      await assert.rejects(s.put(sha(b), b), ContentStoreFullError);
      assert.equal(s.bytesUsed(), 12, 'a refused write reserves nothing');
      // A torn temporary file of a crash is removed at the next open; the held file is counted.
      await writeFile(join(dir, `${sha(b)}.0.tmp`), b.slice(0, 3));
      const again = await ContentStore.open(dir, 20, { fsync: false });
      assert.equal(again.bytesUsed(), 12);
      assert.ok(again.has(sha(a)) && !again.has(sha(b)));
      assert.deepEqual(await readdir(dir), [sha(a)]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
