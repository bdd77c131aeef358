import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { crc32c } from './crc32c.js';

// Bit-at-a-time reference straight from the definition, to cross-check the sliced tables.
function crc32cBitwise(data: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0x82f63b78 : crc >>> 1;
  }
  return ~crc >>> 0;
}

describe('crc32c', () => {
  it('has the standard check value for "123456789"', () => {
    assert.equal(crc32c(new TextEncoder().encode('123456789')), 0xe3069283);
  });

  it('matches the RFC 3720 B.4 vectors', () => {
    assert.equal(crc32c(new Uint8Array(32)), 0x8a9136aa);
    assert.equal(crc32c(new Uint8Array(32).fill(0xff)), 0x62a8ab43);
    assert.equal(crc32c(Uint8Array.from({ length: 32 }, (_, i) => i)), 0x46dd794e);
    assert.equal(crc32c(Uint8Array.from({ length: 32 }, (_, i) => 31 - i)), 0x113fdb5c);
  });

  it('is 0 for empty input and agrees with a bitwise reference at every length', () => {
    assert.equal(crc32c(new Uint8Array(0)), 0);
    const data = Uint8Array.from({ length: 300 }, (_, i) => (i * 131 + 7) & 0xff);
    for (let n = 0; n <= data.length; n += 1) {
      assert.equal(crc32c(data.subarray(0, n)), crc32cBitwise(data.subarray(0, n)), `length ${n}`);
    }
  });

  it('continues across calls', () => {
    const data = Uint8Array.from({ length: 97 }, (_, i) => (i * 17) & 0xff);
    for (const cut of [0, 1, 4, 8, 13, 96, 97]) {
      assert.equal(crc32c(data.subarray(cut), crc32c(data.subarray(0, cut))), crc32c(data));
    }
  });
});
