import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { declarePermissionTokens, isPermissionName, PERMISSIONS } from '../../model/permissions.js';
import { permissionProblem } from '../../state/authorize.js';
import { MANAGE_CONTROLS } from './permissions.js';

describe('the transfer controls permission token', () => {
  it('is a token of the build, scoped by asset definition, though the core does not list it', () => {
    assert.ok(!Object.hasOwn(PERMISSIONS, MANAGE_CONTROLS));
    assert.ok(isPermissionName(MANAGE_CONTROLS));
    assert.equal(
      permissionProblem({ name: MANAGE_CONTROLS, payload: { asset_definition: 'rose#wonderland' } }),
      undefined,
    );
    assert.equal(
      permissionProblem({ name: MANAGE_CONTROLS, payload: null }),
      'CanManageTransferControls needs the payload {"asset_definition": "<id>"}',
    );
    assert.equal(
      permissionProblem({ name: 'CanManageTransferKnobs', payload: null }),
      'unknown permission CanManageTransferKnobs',
    );
  });

  it('cannot be declared twice, nor shadow a core token', () => {
    assert.throws(() => declarePermissionTokens({ [MANAGE_CONTROLS]: 'asset_definition' }), /twice/);
    assert.throws(() => declarePermissionTokens({ Admin: null }), /twice/);
  });
});
