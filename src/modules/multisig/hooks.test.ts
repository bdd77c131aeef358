import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RUN_AS_DEPTH_MAX } from '../../state/exec-context.js';
import { MULTISIG_NESTING_MAX } from './model.js';

describe('multisig hooks', () => {
  it('proposals nest no deeper than the executor lets runAs batches nest', () => {
    // execute.ts refuses at MULTISIG_NESTING_MAX (multisig_nesting_too_deep); the executor asserts at
    // RUN_AS_DEPTH_MAX, which must never be the one that stops a proposal.
    assert.ok(MULTISIG_NESTING_MAX <= RUN_AS_DEPTH_MAX, `${MULTISIG_NESTING_MAX} > ${RUN_AS_DEPTH_MAX}`);
  });
});
