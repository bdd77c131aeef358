import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { conferenceWorld } from '../../test/fixtures/state/conference-fixture.js';
import { ADMIN, acc, amount, asset, BOB, expectCode, ROSE } from '../../test/fixtures/state/state-fixture.js';
import { devZkParameters } from '../../test/helpers/zk.js';
import type { Instruction } from '../model/instructions.js';
import { fieldToHex } from '../zk/field.js';

const POOL = acc(9);
const TREASURY = acc(10);
const shield = (value: string): Instruction => ({
  kind: 'ShieldAsset',
  amount: amount(value),
  ownerHash: fieldToHex(1n),
});
const minUnits = (value: number): Instruction => ({
  kind: 'SetParameter',
  parameter: { kind: 'ShieldedNoteMinUnits', value },
});

describe('ShieldAsset: the minimum note (ROSE, scale 2)', () => {
  const setup = () => {
    const chain = conferenceWorld();
    expectCode(
      chain,
      ADMIN,
      [
        { kind: 'RegisterAccount', id: POOL, metadata: new Map() },
        { kind: 'RegisterAccount', id: TREASURY, metadata: new Map() },
        ...devZkParameters({ pool: POOL, fee: '2.50', treasury: TREASURY }),
      ],
      'Committed',
    );
    return chain;
  };
  const leaves = (chain: ReturnType<typeof setup>) => chain.state.shieldedPool().leaves.length;
  const pool = (chain: ReturnType<typeof setup>) =>
    chain.state.asset(asset(ROSE, POOL))?.value.mantissa ?? 0n;

  it('unset, a note holds one whole native unit at least; a dust batch is refused whole', () => {
    const chain = setup();
    expectCode(chain, BOB, [shield('0.99')], 'shielded_note_below_minimum');
    expectCode(
      chain,
      BOB,
      Array.from({ length: 100 }, () => shield('0.01')),
      'shielded_note_below_minimum',
    );
    assert.equal(leaves(chain), 0);
    assert.equal(pool(chain), 0n);
    expectCode(chain, BOB, [shield('1'), shield('1.50')], 'Committed');
    assert.equal(leaves(chain), 2);
    assert.equal(pool(chain), 250n);
  });

  it('the parameter moves the minimum either way', () => {
    const chain = setup();
    expectCode(chain, ADMIN, [minUnits(500)], 'Committed');
    expectCode(chain, BOB, [shield('4.99')], 'shielded_note_below_minimum');
    expectCode(chain, BOB, [shield('5')], 'Committed');
    expectCode(chain, ADMIN, [minUnits(1)], 'Committed');
    expectCode(chain, BOB, [shield('0.01')], 'Committed');
    assert.equal(leaves(chain), 2);
  });
});
