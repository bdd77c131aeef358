// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../registry.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newAccount } from '../../../test/helpers/tx.js';
import { numeric } from '../../model/numeric.js';
import { gini, holderSnapshot, lorenz } from './snapshot.js';

describe('holder snapshot (exact integer Gini and Lorenz curve)', () => {
  it('is 0 for equal holdings and for fewer than two holders', () => {
    assert.equal(gini([5n, 5n, 5n], 15n), 0);
    assert.equal(gini([7n], 7n), 0);
    assert.equal(gini([], 0n), 0);
  });

  it('approaches 1 when one holder has everything', () => {
    // n = 4, ascending [0, 0, 0, 100]: Σ(2i - n - 1)·x = 3·100; / (4·100) = 0.75.
    assert.equal(gini([0n, 0n, 0n, 100n], 100n), 750_000);
  });

  it('draws the Lorenz curve from (0, 0) to (1, 1) in ten steps of holders', () => {
    const points = lorenz([1n, 2n, 3n, 4n, 10n, 10n, 10n, 20n, 20n, 20n], 100n);
    assert.equal(points.length, 11);
    assert.deepEqual(points[0], { holdersPpm: 0, quantityPpm: 0 });
    assert.deepEqual(points[4], { holdersPpm: 400_000, quantityPpm: 100_000 });
    assert.deepEqual(points[10], { holdersPpm: 1_000_000, quantityPpm: 1_000_000 });
  });

  it('rescales balances to the definition scale, drops empty ones and orders the top holders', () => {
    const [a, b, c, d] = [1, 2, 3, 4].map((seed) => newAccount('w', seed).id) as [
      string,
      string,
      string,
      string,
    ];
    // Ties (a and d) go by account id.
    const [first, second] = a < d ? [a, d] : [d, a];
    const s = holderSnapshot('rose#w', 2, 9, [
      { id: `rose#w#${a}`, value: numeric('1.5') },
      { id: `rose#w#${b}`, value: numeric('3.00') },
      { id: `rose#w#${c}`, value: numeric('0') },
      { id: `rose#w#${d}`, value: numeric('1.50') },
    ]);
    assert.equal(s.holders, 3);
    assert.deepEqual(s.totalQuantity, { mantissa: 600n, scale: 2 });
    assert.deepEqual(
      s.topHolders.map((h) => [h.accountId, h.sharePpm]),
      [
        [b, 500_000],
        [first, 250_000],
        [second, 250_000],
      ],
    );
  });
});
