// The state warm-up reads exactly the keys of its range, on a worker thread, with its progress; close()
// stops a warm-up still running before LMDB closes.

import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { StateStore } from './state-store.js';

const hash = (n: number) => new Uint8Array(32).fill(n);

/** Rows under first bytes 0x02 and 0xF9 (inside the warmed range) and 0x01 and 0xFA (outside it). */
function changes(perPrefix: number) {
  const out: { key: Uint8Array; value: Uint8Array }[] = [];
  for (const first of [0x01, 0x02, 0xf9, 0xfa])
    for (let i = 0; i < perPrefix; i++) {
      const key = new Uint8Array(9);
      key[0] = first;
      new DataView(key.buffer).setUint32(5, i);
      out.push({ key, value: new Uint8Array(24).fill(i & 0xff) });
    }
  return out;
}

describe('StateStore.warmUp', () => {
  it('reads every key whose first byte is in the range, none outside it, reporting its progress', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'torana-state-warm-'));
    try {
      const store = await StateStore.open(dir, { fsync: false, mapSizeBytes: 64 << 20 });
      const perPrefix = 10_000;
      await store.commit(1, hash(1), changes(perPrefix));
      const seen: number[] = [];
      const warm = store.warmUp(0x02, 0xfa, (p) => seen.push(p.keys));
      const result = await warm.done;
      // Two prefixes of 10,000 keys: 9 bytes each, plus the key-space byte, and 24 bytes of value.
      assert.deepEqual(result, { keys: 2 * perPrefix, bytes: 2 * perPrefix * (10 + 24), stopped: false });
      assert.deepEqual(warm.read(), { keys: result.keys, bytes: result.bytes });
      assert.ok(seen.length >= 2, `progress reported ${seen.length} times`);
      assert.ok(
        seen.every((k, i) => i === 0 || k >= seen[i - 1]!),
        'progress never goes back',
      );
      assert.equal(seen.at(-1), 2 * perPrefix);
      // The store still serves and commits after it.
      await store.commit(2, hash(2), [{ key: 'after', value: Uint8Array.of(1) }]);
      assert.deepEqual([...(store.get('after') ?? [])], [1]);
      await store.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('close() stops a warm-up still running, then closes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'torana-state-warm-'));
    try {
      const store = await StateStore.open(dir, { fsync: false, mapSizeBytes: 256 << 20 });
      // 20,000 keys: several of the worker's batches, so that close() finds it running.
      const total = 4 * 5_000;
      await store.commit(1, hash(1), changes(total / 4));
      const warm = store.warmUp(0x01, 0xff);
      await store.close();
      const result = await warm.done;
      // close() raises the stop flag before the worker's first batch (the worker reads it before each
      // batch): stopped, short of the stored keys.
      assert.equal(result.stopped, true, JSON.stringify(result));
      assert.ok(result.keys < total, String(result.keys));
      // The environment closed cleanly: it opens again with everything.
      const again = await StateStore.open(dir, { fsync: false, mapSizeBytes: 256 << 20 });
      assert.equal(again.appliedHeight(), 1);
      await again.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
