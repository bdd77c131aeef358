import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
// Imported alone (no registry): no module has declared anything yet in this process.
// test-runner: own process: it checks the state before any module declares its parameters, and batched files load the registry.
import { declareZkParameters, NOTE_VK, verifyingKeyParameters, zkParameters } from './zk-parameters.js';

const params = {
  verifyingKeys: [
    { id: 'a_vk', artifact: 'a' },
    { id: 'b_vk', artifact: 'b' },
  ],
  entryFee: 'x_fee',
  feeAccount: 'x_treasury',
  devKeysFeature: 'x.dev_keys',
};

describe('the zero-knowledge parameters a module declares', () => {
  it('without a declaration: only the pool’s own key, no fee parameters', () => {
    assert.equal(zkParameters(), undefined);
    assert.deepEqual(verifyingKeyParameters(), [NOTE_VK]);
  });

  it('the module’s keys are checked first, in its order, then the pool’s', () => {
    declareZkParameters(params);
    assert.deepEqual(
      verifyingKeyParameters().map((k) => k.id),
      ['a_vk', 'b_vk', 'shielded_note_vk'],
    );
    assert.equal(zkParameters()?.entryFee, 'x_fee');
  });

  it('one module declares them: the same again is a no-op, another declaration a start-up error', () => {
    declareZkParameters(params);
    assert.throws(() => declareZkParameters({ ...params, entryFee: 'y_fee' }), /one module only/);
    assert.equal(zkParameters()?.entryFee, 'x_fee');
  });
});
