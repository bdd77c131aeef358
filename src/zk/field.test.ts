import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  FIELD_ORDER,
  fieldFromBytes,
  fieldFromDigest,
  fieldFromHex,
  fieldToBytes,
  fieldToHex,
  isField,
} from './field.js';

describe('zk field elements', () => {
  it('round-trips bytes and hex, big-endian', () => {
    for (const v of [0n, 1n, 255n, 256n, FIELD_ORDER - 1n, 0x0102030405060708090an]) {
      assert.equal(fieldFromBytes(fieldToBytes(v)), v);
      assert.equal(fieldFromHex(fieldToHex(v)), v);
    }
    assert.equal(fieldToHex(258n), `${'0'.repeat(60)}0102`);
  });

  it('rejects values ≥ r, wrong lengths and bad hex without throwing', () => {
    assert.equal(fieldFromBytes(new Uint8Array(32).fill(0xff)), undefined);
    assert.equal(fieldFromHex(FIELD_ORDER.toString(16).padStart(64, '0')), undefined);
    assert.equal(fieldFromBytes(new Uint8Array(31)), undefined);
    assert.equal(fieldFromHex('zz'.repeat(32)), undefined);
    assert.equal(fieldFromHex('00'), undefined);
    assert.ok(!isField(-1n) && !isField(FIELD_ORDER) && isField(FIELD_ORDER - 1n));
    assert.throws(() => fieldToBytes(FIELD_ORDER), RangeError);
  });

  it('maps digests into the field deterministically', () => {
    const a = fieldFromDigest(new TextEncoder().encode('a'));
    assert.equal(a, fieldFromDigest(new TextEncoder().encode('a')));
    assert.notEqual(a, fieldFromDigest(new TextEncoder().encode('b')));
    assert.ok(isField(a));
  });
});
