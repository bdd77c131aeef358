import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fromHex, toHex } from './hex.js';

describe('toHex', () => {
  it('matches Buffer hex in both cases at every length, including the native path and big inputs', () => {
    for (const n of [0, 1, 7, 8, 9, 31, 32, 48, 64, 255, 2047, 2048, 2049, 5000, 3]) {
      const bytes = new Uint8Array(n).map((_, i) => (i * 131 + n) & 0xff);
      const lower = Buffer.from(bytes).toString('hex');
      assert.equal(toHex(bytes), lower, `lower ${n}`);
      assert.equal(toHex(bytes, true), lower.toUpperCase(), `upper ${n}`);
      assert.deepEqual(fromHex(lower), bytes);
    }
  });

  it('each byte value prints as its two digits (a fresh string each call)', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    const a = toHex(all);
    const b = toHex(all.subarray(0, 16));
    assert.equal(a.slice(0, 32), b);
    assert.equal(a, Buffer.from(all).toString('hex'));
  });
});
