// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../modules/registry.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Block } from '../model/block.js';
import { BlockHashIndex } from './consensus-port.js';

/** A chain whose block h is certified with hash [h, h, …]; counts reads. */
function fakeChain() {
  const c = {
    tip: 0,
    reads: [] as number[],
    height: () => c.tip,
    block: async (h: number) => {
      c.reads.push(h);
      if (h < 1 || h > c.tip) return undefined;
      return { certificate: { blockHash: hashOf(h) } } as unknown as Block;
    },
  };
  return c;
}
const hashOf = (h: number) => new Uint8Array(32).fill(h);

describe('BlockHashIndex', () => {
  it('finds the newest `window` blocks by hash and forgets older ones', async () => {
    const chain = fakeChain();
    const index = new BlockHashIndex(chain, 3);
    chain.tip = 5;
    assert.equal(await index.heightOf(hashOf(5)), 5);
    assert.equal(await index.heightOf(hashOf(3)), 3);
    assert.equal(await index.heightOf(hashOf(2)), undefined, 'outside the window');
    assert.deepEqual(chain.reads, [3, 4, 5], 'the window was read once');
    chain.tip = 7;
    assert.equal(await index.heightOf(hashOf(7)), 7);
    assert.equal(await index.heightOf(hashOf(4)), undefined, 'slid out of the window');
    assert.equal(await index.heightOf(hashOf(9)), undefined);
    assert.deepEqual(chain.reads, [3, 4, 5, 6, 7], 'only new blocks are read');
  });

  it('concurrent lookups share one refresh', async () => {
    const chain = fakeChain();
    const index = new BlockHashIndex(chain, 100);
    chain.tip = 4;
    const found = await Promise.all([1, 2, 3, 4].map((h) => index.heightOf(hashOf(h))));
    assert.deepEqual(found, [1, 2, 3, 4]);
    assert.deepEqual(chain.reads, [1, 2, 3, 4]);
  });
});
