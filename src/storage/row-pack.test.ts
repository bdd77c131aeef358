import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toHex } from '../util/hex.js';
import { RowPack } from './row-pack.js';
import { STATE_KEY_BYTES_MAX, userKey } from './state-keys.js';

describe('row pack', () => {
  it('gives back every row with its stored key, in order, across growth and a clear', () => {
    const pack = new RowPack();
    const rows = Array.from({ length: 3_000 }, (_, i) => ({
      key: new TextEncoder().encode(`k${i}`),
      value: new Uint8Array(i % 700).fill(i & 0xff),
    }));
    for (const round of [0, 1]) {
      for (const r of rows) pack.put(r.key, r.value);
      assert.equal(pack.length, rows.length);
      const got = [...pack.stored()].map((e) => `${toHex(e.key)}=${toHex(e.value)}`);
      assert.deepEqual(
        got,
        rows.map((r) => `${toHex(userKey(r.key))}=${toHex(r.value)}`),
        `round ${round}`,
      );
      pack.clear();
      assert.equal(pack.length, 0);
    }
  });

  it('refuses a key the store would refuse', () => {
    assert.throws(() => new RowPack().put(new Uint8Array(STATE_KEY_BYTES_MAX + 1), new Uint8Array(0)), {
      code: 'storage_invalid_key',
    });
  });
});
