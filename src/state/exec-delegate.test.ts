// Transfer delegates (model/permissions.ts TransferDelegate, CanTransferFrom): the
// ISO 20022 bridge account may debit only accounts that granted it CanTransferFrom, whatever else it
// holds, and only an account itself (or a permission manager) hands out a grant on it.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ADMIN,
  ALICE,
  acc,
  amount,
  asset,
  BOB,
  CAROL,
  type Chain,
  expectCode,
  perm,
  ROSE,
  world,
} from '../../test/fixtures/state/state-fixture.js';
import type { Instruction } from '../model/instructions.js';
import { type Permission, permissionKey } from '../model/permissions.js';
import { authorizeDebit, heldTokens, holdsScopedToken } from './authorize.js';
import type { ExecContext } from './exec-context.js';
import type { StateViews } from './state-view.js';

const BRIDGE = acc(9);
const from = (account: string) => perm('CanTransferFrom', { account });
const grant = (account: string, p = from(account), to = BRIDGE): Instruction => ({
  kind: 'GrantPermission',
  account: to,
  permission: p,
});
const move = (source: string, destination: string, n = '1'): Instruction => ({
  kind: 'TransferAsset',
  source: asset(ROSE, source),
  destination,
  amount: amount(n),
});
const burn = (source: string): Instruction => ({
  kind: 'BurnAsset',
  asset: asset(ROSE, source),
  amount: amount('1'),
});

/** world() plus the delegate BRIDGE (TransferDelegate) and 100 ROSE on ALICE and on CAROL. */
function setup(): Chain {
  const chain = world();
  expectCode(
    chain,
    ADMIN,
    [
      { kind: 'RegisterAccount', id: BRIDGE, metadata: new Map() },
      grant('', perm('TransferDelegate')),
      { kind: 'MintAsset', asset: asset(ROSE, ALICE), amount: amount('100') },
      { kind: 'MintAsset', asset: asset(ROSE, CAROL), amount: amount('100') },
    ],
    'Committed',
  );
  return chain;
}

describe('transfer delegates', () => {
  it('debit only what the source granted: transfer and burn refused with debit_not_granted', () => {
    const chain = setup();
    expectCode(chain, BRIDGE, [move(CAROL, BOB)], 'debit_not_granted');
    expectCode(chain, BRIDGE, [burn(CAROL)], 'debit_not_granted');
    expectCode(chain, ALICE, [grant(ALICE)], 'Committed');
    expectCode(chain, BRIDGE, [move(ALICE, BOB, '2.5')], 'Committed');
    expectCode(chain, BRIDGE, [burn(ALICE)], 'Committed');
    // ALICE's grant says nothing about CAROL.
    expectCode(chain, BRIDGE, [move(CAROL, BOB)], 'debit_not_granted');
    // Revoked by the owner: refused again.
    expectCode(
      chain,
      ALICE,
      [{ kind: 'RevokePermission', account: BRIDGE, permission: from(ALICE) }],
      'Committed',
    );
    expectCode(chain, BRIDGE, [move(ALICE, BOB)], 'debit_not_granted');
  });

  it('no token widens a delegate: Admin, a role, CanTransferAssetWithDefinition', () => {
    const chain = setup();
    expectCode(
      chain,
      ADMIN,
      [
        grant('', perm('Admin')),
        grant('', perm('CanTransferAssetWithDefinition', { asset_definition: ROSE })),
        { kind: 'RegisterRole', id: 'ops', permissions: [perm('CanManagePermissions')] },
        { kind: 'GrantRole', account: BRIDGE, role: 'ops' },
      ],
      'Committed',
    );
    expectCode(chain, BRIDGE, [move(CAROL, BOB)], 'debit_not_granted');
    expectCode(
      chain,
      BRIDGE,
      [{ kind: 'MintAsset', asset: asset(ROSE, BRIDGE), amount: amount('5') }],
      'permission_denied',
    );
    // It can neither grant itself a debit nor shed the delegate mark.
    expectCode(chain, BRIDGE, [grant(CAROL)], 'permission_denied');
    expectCode(
      chain,
      BRIDGE,
      [{ kind: 'RevokePermission', account: BRIDGE, permission: perm('TransferDelegate') }],
      'permission_denied',
    );
    // Its own objects stay its own: metadata of its account.
    expectCode(
      chain,
      BRIDGE,
      [{ kind: 'SetKeyValue', target: { kind: 'Account', id: BRIDGE }, key: 'k', value: 1 }],
      'Committed',
    );
  });

  it('only the source account or a permission manager grants CanTransferFrom on it', () => {
    const chain = setup();
    expectCode(chain, BOB, [grant(CAROL)], 'permission_denied');
    expectCode(chain, BOB, [grant(CAROL, from(CAROL), BOB)], 'permission_denied');
    expectCode(chain, CAROL, [grant(CAROL)], 'Committed');
    expectCode(chain, ALICE, [grant(ALICE, from(ALICE), BOB)], 'Committed');
    // A non-delegate holding the grant may debit too (the token is generic).
    expectCode(chain, BOB, [move(ALICE, CAROL)], 'Committed');
    expectCode(
      chain,
      ADMIN,
      [grant(ALICE, { name: 'CanTransferFrom', payload: { domain: 'x' } })],
      'invalid_parameter',
    );
  });

  it('a debit looks up its one grant: the answer of the held-token set, no other grant rendered', () => {
    // Views holding `direct` permissions and a role with `viaRole`, for BRIDGE.
    const views = (direct: Permission[], viaRole: Permission[] = []) =>
      ({
        accountPermissions: new Map([[BRIDGE, direct]]),
        accountRoles: new Map([[BRIDGE, ['r']]]),
        role: new Map([['r', { permissions: viaRole }]]),
      }) as unknown as StateViews;
    const held = (t: StateViews, source: string) => heldTokens(t, BRIDGE).has(permissionKey(from(source)));
    const cases: Array<[Permission[], Permission[]]> = [
      [[from(ALICE)], []],
      [[], [from(ALICE)]],
      [[perm('CanTransferFrom', { account: ALICE, extra: 'x' })], []],
      [[perm('CanTransferFrom', ALICE)], [perm('CanTransferFrom', null)]],
      [[perm('CanTransferFrom', { account: 1 })], [perm('CanTransferFrom', [ALICE])]],
      [[perm('CanTransferAssetWithDefinition', { asset_definition: ALICE })], []],
      [[perm('TransferDelegate'), from(BOB)], [from(CAROL)]],
    ];
    for (const [direct, viaRole] of cases) {
      const t = views(direct, viaRole);
      for (const source of [ALICE, BOB, CAROL])
        assert.equal(holdsScopedToken(t, BRIDGE, 'CanTransferFrom', source), held(t, source));
    }
    // Many grants: only the one naming the source is looked at (each payload counts its key listings).
    let listed = 0;
    const counted = (account: string) =>
      perm(
        'CanTransferFrom',
        new Proxy(
          { account },
          {
            ownKeys: (o) => {
              listed++;
              return Reflect.ownKeys(o);
            },
          },
        ),
      );
    const t = views([perm('TransferDelegate'), counted(ALICE), counted(BOB), counted(CAROL)]);
    const x = { checkPermissions: true, authority: BRIDGE, t } as unknown as ExecContext;
    assert.equal(authorizeDebit(x, CAROL, [CAROL], 'CanTransferAssetWithDefinition', ROSE), undefined);
    assert.equal(listed, 1, 'the grants of ALICE and BOB are not rendered');
    assert.equal(
      authorizeDebit(x, ADMIN, [ADMIN], 'CanTransferAssetWithDefinition', ROSE)?.code,
      'debit_not_granted',
    );
  });
});
