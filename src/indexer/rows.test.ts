import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { numeric } from '../model/numeric.js';
import { addNumeric, signedText, timestampText } from './rows.js';

describe('indexer row values', () => {
  it('adds and subtracts amounts of different scales exactly', () => {
    assert.equal(addNumeric(numeric('25.25'), numeric('0.25'), -1).text, '25.00');
    assert.equal(addNumeric(numeric('0'), numeric('1.5'), 1).text, '1.5');
    assert.equal(addNumeric(numeric('1'), numeric('1.001'), -1).text, '-0.001');
    assert.deepEqual(addNumeric(numeric('1'), numeric('1.001'), -1).value, { mantissa: 1n, scale: 3 });
    const big = '340282366920938463463374607431768211455';
    assert.equal(addNumeric(numeric(big), numeric(big), 1).text, '680564733841876926926749214863536422910');
  });

  it('prints signed decimals and ISO timestamps', () => {
    assert.equal(signedText(-5n, 2), '-0.05');
    assert.equal(signedText(0n, 0), '0');
    assert.equal(timestampText(0), '1970-01-01T00:00:00.000Z');
  });
});
