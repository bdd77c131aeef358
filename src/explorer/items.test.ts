// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../modules/registry.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newestFirst } from './items.js';

describe('newestFirst (explorer recent transactions)', () => {
  // Blocks newest first: block 0 holds 3 transactions, block 1 none, block 2 holds 2.
  const counts = [3, 0, 2];
  const page = (offset: number, count: number) =>
    newestFirst(counts, offset, count).map(({ block, index }) => `${block}:${index}`);

  it('walks blocks newest first and indexes from the last', () => {
    assert.deepEqual(page(0, 10), ['0:2', '0:1', '0:0', '2:1', '2:0']);
  });

  it('starts inside a block when the offset falls within it', () => {
    assert.deepEqual(page(1, 2), ['0:1', '0:0']);
    assert.deepEqual(page(2, 2), ['0:0', '2:1']);
  });

  it('skips whole and empty blocks, and gives nothing past the end', () => {
    assert.deepEqual(page(3, 1), ['2:1']);
    assert.deepEqual(page(4, 5), ['2:0']);
    assert.deepEqual(page(5, 5), []);
    assert.deepEqual(newestFirst([], 0, 5), []);
  });
});
