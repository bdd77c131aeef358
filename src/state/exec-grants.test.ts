import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ADMIN,
  acc,
  BOB,
  CAROL,
  expectCode,
  perm,
  registerPeer,
  world,
} from '../../test/fixtures/state/state-fixture.js';
import { decode, encode } from '../codec/frame.js';
import { DEFAULT_DECODE_LIMITS } from '../codec/limits.js';
import { TransactionResultCodec } from '../model/block.js';

const peers = perm('CanManagePeers');
const grant = (account: string, permission = peers) =>
  ({ kind: 'GrantPermission', account, permission }) as const;
const revoke = (account: string, permission = peers) =>
  ({ kind: 'RevokePermission', account, permission }) as const;

describe('GrantPermission / RevokePermission', () => {
  it('grants and revokes with events; the grant takes effect', () => {
    const chain = world();
    assert.deepEqual(expectCode(chain, ADMIN, [grant(BOB)], 'Committed'), [
      { kind: 'PermissionGranted', account: BOB, permission: peers },
    ]);
    assert.deepEqual(chain.state.permissionsOfAccount(BOB), [peers]);
    expectCode(chain, BOB, [registerPeer(0x70)], 'Committed');
    assert.deepEqual(expectCode(chain, ADMIN, [revoke(BOB)], 'Committed'), [
      { kind: 'PermissionRevoked', account: BOB, permission: peers },
    ]);
    assert.deepEqual(chain.state.permissionsOfAccount(BOB), []);
  });

  it('rejects: missing account, no CanManagePermissions, duplicate, not held, unknown token', () => {
    const chain = world();
    expectCode(chain, ADMIN, [grant(acc(9))], 'account_not_found');
    expectCode(chain, BOB, [grant(CAROL)], 'permission_denied');
    expectCode(chain, ADMIN, [grant(BOB)], 'Committed');
    expectCode(chain, ADMIN, [grant(BOB)], 'already_exists');
    expectCode(chain, ADMIN, [revoke(CAROL)], 'permission_not_held');
    expectCode(chain, ADMIN, [revoke(acc(9))], 'account_not_found');
    expectCode(chain, ADMIN, [grant(BOB, perm('CanFly'))], 'invalid_parameter');
    expectCode(chain, ADMIN, [grant(BOB, perm('CanManagePeers', { x: 1 }))], 'invalid_parameter');
  });

  it('clips long rejection messages so the result still encodes', () => {
    const chain = world();
    const { result } = chain.run(ADMIN, [grant(BOB, perm('X'.repeat(5000)))]);
    assert.equal(result.kind === 'Rejected' && result.reason.code, 'invalid_parameter');
    const decoded = decode(
      TransactionResultCodec,
      encode(TransactionResultCodec, result),
      DEFAULT_DECODE_LIMITS,
    );
    assert.ok(decoded.ok, 'a peer must be able to decode the result again');
  });

  it('lets CanManagePermissions grant tokens but not Admin', () => {
    const chain = world();
    expectCode(chain, ADMIN, [grant(BOB, perm('CanManagePermissions'))], 'Committed');
    expectCode(chain, BOB, [grant(CAROL)], 'Committed');
    expectCode(chain, BOB, [grant(CAROL, perm('Admin'))], 'permission_denied');
    expectCode(chain, BOB, [revoke(ADMIN, perm('Admin'))], 'permission_denied');
  });
});

describe('GrantRole / RevokeRole', () => {
  it('grants a role whose permissions then apply, and revokes it', () => {
    const chain = world();
    expectCode(chain, ADMIN, [{ kind: 'RegisterRole', id: 'ops', permissions: [peers] }], 'Committed');
    const events = expectCode(
      chain,
      ADMIN,
      [{ kind: 'GrantRole', account: CAROL, role: 'ops' }],
      'Committed',
    );
    assert.deepEqual(events, [{ kind: 'RoleGranted', account: CAROL, role: 'ops' }]);
    assert.deepEqual(chain.state.rolesOfAccount(CAROL), ['ops']);
    expectCode(chain, CAROL, [registerPeer(0x71)], 'Committed');
    const revoked = expectCode(
      chain,
      ADMIN,
      [{ kind: 'RevokeRole', account: CAROL, role: 'ops' }],
      'Committed',
    );
    assert.deepEqual(revoked, [{ kind: 'RoleRevoked', account: CAROL, role: 'ops' }]);
    expectCode(chain, CAROL, [registerPeer(0x72)], 'permission_denied');
  });

  it('rejects: missing account or role, no CanManageRoles, duplicate, not held, Admin role by non-Admin', () => {
    const chain = world();
    expectCode(chain, ADMIN, [{ kind: 'RegisterRole', id: 'ops', permissions: [peers] }], 'Committed');
    expectCode(
      chain,
      ADMIN,
      [{ kind: 'RegisterRole', id: 'boss', permissions: [perm('Admin')] }],
      'Committed',
    );
    expectCode(chain, ADMIN, [{ kind: 'GrantRole', account: acc(9), role: 'ops' }], 'account_not_found');
    expectCode(chain, ADMIN, [{ kind: 'GrantRole', account: BOB, role: 'nope' }], 'role_not_found');
    expectCode(chain, BOB, [{ kind: 'GrantRole', account: CAROL, role: 'ops' }], 'permission_denied');
    expectCode(chain, ADMIN, [{ kind: 'GrantRole', account: CAROL, role: 'ops' }], 'Committed');
    expectCode(chain, ADMIN, [{ kind: 'GrantRole', account: CAROL, role: 'ops' }], 'already_exists');
    expectCode(chain, ADMIN, [{ kind: 'RevokeRole', account: BOB, role: 'ops' }], 'permission_not_held');
    expectCode(chain, ADMIN, [{ kind: 'RevokeRole', account: BOB, role: 'nope' }], 'role_not_found');
    expectCode(chain, ADMIN, [grant(BOB, perm('CanManageRoles'))], 'Committed');
    expectCode(chain, BOB, [{ kind: 'GrantRole', account: CAROL, role: 'boss' }], 'permission_denied');
    expectCode(chain, BOB, [{ kind: 'RevokeRole', account: CAROL, role: 'ops' }], 'Committed');
  });
});
