import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toHex } from '../util/hex.js';
import { RowPack, RowStream, type StreamedRow } from './row-pack.js';
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

  it('streams rows for a transaction without copying them: at most max, stored keys, the values given', () => {
    const rows: StreamedRow[] = Array.from({ length: 7 }, (_, i) => ({
      key: Uint8Array.of(0xf9, i, 0x41),
      value: Uint8Array.of(i, i + 1),
    }));
    let at = 0;
    const next = () => rows[at++];
    const first = new RowStream(next, 4);
    const got: [string, Uint8Array][] = [];
    for (const r of first.stored()) got.push([toHex(r.key), r.value]);
    assert.equal(first.length, 4);
    assert.equal(first.ended, false);
    assert.deepEqual(
      got.map((g) => g[0]),
      rows.slice(0, 4).map((r) => toHex(userKey(r.key))),
    );
    for (const [i, g] of got.entries())
      assert.equal(g[1], rows[i]!.value, 'the value is the view the stream gave');
    const rest = new RowStream(next, 4);
    assert.equal([...rest.stored()].length, 3);
    assert.equal(rest.length, 3);
    assert.equal(rest.ended, true);
    const long = new RowStream(
      () => ({ key: new Uint8Array(STATE_KEY_BYTES_MAX + 1), value: new Uint8Array(0) }),
      2,
    );
    assert.throws(() => [...long.stored()], { code: 'storage_invalid_key' });
  });
});
