import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ADMIN,
  ALICE,
  amount,
  asset,
  BOB,
  CAROL,
  expectCode,
  ROSE,
  world,
} from '../../test/fixtures/state/state-fixture.js';
import { numeric } from '../model/numeric.js';
import { addNumeric, type BlockRows, readAfter, signedText, timestampText } from './rows.js';

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

describe('indexer holders after a block', () => {
  it('counts the holders of a non-zero amount from the stored count, without listing them', () => {
    const chain = world();
    const mint = (to: string, a: string) => ({
      kind: 'MintAsset' as const,
      asset: asset(ROSE, to),
      amount: amount(a),
    });
    expectCode(chain, ADMIN, [mint(ALICE, '5'), mint(BOB, '2.5'), mint(CAROL, '1')], 'Committed');
    // CAROL's whole balance moves to BOB: her asset row goes, so the holders are ALICE and BOB.
    const all = {
      kind: 'TransferAsset' as const,
      source: asset(ROSE, CAROL),
      destination: BOB,
      amount: amount('1'),
    };
    expectCode(chain, CAROL, [all], 'Committed');
    const listed = chain.state.holdersOfDefinition(ROSE).filter((a) => a.value.mantissa > 0n).length;
    assert.equal(listed, 2);
    // Listing the holders is what this must not do: the state given to it refuses to.
    const state = new Proxy(chain.state, {
      get(target, name, receiver) {
        if (name === 'holdersOfDefinition') throw new Error('listed the holders');
        const v = Reflect.get(target, name, receiver);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
    const rows = {
      balances: [],
      holders: [{ definition: ROSE, holders: 0, total: '0' }],
    } as unknown as BlockRows;
    readAfter(rows, state);
    assert.deepEqual(rows.holders, [{ definition: ROSE, holders: listed, total: '8.50' }]);
  });
});
