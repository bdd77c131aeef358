import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { copyCell, copyLine } from './copy.js';

describe('COPY text cells', () => {
  it('escapes backslash, tab, newline and carriage return; null is \\N', () => {
    assert.equal(copyCell('a\\b\tc\nd\re'), 'a\\\\b\\tc\\nd\\re');
    assert.equal(copyCell(null), '\\N');
    assert.equal(copyCell('\\N'), '\\\\N');
    assert.equal(copyCell(42), '42');
  });

  it('writes bytea in hex form with its backslash escaped, and JSON as escaped text', () => {
    assert.equal(copyCell(new Uint8Array([0, 0xab, 0xff])), '\\\\x00abff');
    // A view into a larger buffer: only its own bytes.
    const big = new Uint8Array([1, 2, 3, 4]);
    assert.equal(copyCell(big.subarray(1, 3)), '\\\\x0203');
    assert.equal(copyCell({ json: { msg: 'tab\there', n: 1 } }), '{"msg":"tab\\\\there","n":1}');
  });

  it('joins a row with tabs and ends it with a newline', () => {
    assert.equal(copyLine([1, 'x', null]), '1\tx\t\\N\n');
  });
});
