// The permission matrix (README.md §Permissions): for each instruction, the owner, a stranger, an
// Admin, a holder of the token and a holder of a role carrying the token.

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
  registerPeer,
  world,
} from '../../test/fixtures/state/state-fixture.js';
import type { Instruction } from '../model/instructions.js';
import type { Permission } from '../model/permissions.js';

const TULIP = 'tulip#garden';
const none = () => new Map();

/** world() plus: ALICE's definition TULIP with 100 on ALICE, ALICE's NFT deed$garden, ALICE's empty domain 'empty'. */
function setup(): Chain {
  const chain = world();
  expectCode(
    chain,
    ALICE,
    [
      {
        kind: 'RegisterAssetDefinition',
        id: TULIP,
        scale: 0,
        mintable: { kind: 'Infinitely' },
        metadata: none(),
      },
      { kind: 'MintAsset', asset: asset(TULIP, ALICE), amount: amount('100') },
      { kind: 'RegisterNft', id: 'deed$garden', content: none() },
    ],
    'Committed',
  );
  expectCode(
    chain,
    ADMIN,
    [
      { kind: 'RegisterDomain', id: 'empty', metadata: none() },
      { kind: 'TransferDomain', id: 'empty', source: ADMIN, destination: ALICE },
    ],
    'Committed',
  );
  return chain;
}

interface Case {
  name: string;
  ins: Instruction;
  owner: string | undefined;
  token: Permission | undefined;
}

const CASES: Case[] = [
  {
    name: 'MintAsset',
    ins: { kind: 'MintAsset', asset: asset(TULIP, BOB), amount: amount('1') },
    owner: ALICE,
    token: perm('CanMintAssetWithDefinition', { asset_definition: TULIP }),
  },
  {
    name: 'BurnAsset',
    ins: { kind: 'BurnAsset', asset: asset(TULIP, ALICE), amount: amount('1') },
    owner: ALICE,
    token: perm('CanBurnAssetWithDefinition', { asset_definition: TULIP }),
  },
  {
    name: 'TransferAsset',
    ins: { kind: 'TransferAsset', source: asset(TULIP, ALICE), destination: CAROL, amount: amount('1') },
    owner: ALICE,
    token: perm('CanTransferAssetWithDefinition', { asset_definition: TULIP }),
  },
  {
    name: 'RegisterAccount',
    ins: { kind: 'RegisterAccount', id: acc(9, 'garden'), metadata: none() },
    owner: ALICE,
    token: perm('CanRegisterAccountInDomain', { domain: 'garden' }),
  },
  {
    name: 'RegisterAssetDefinition',
    ins: {
      kind: 'RegisterAssetDefinition',
      id: 'lily#garden',
      scale: 0,
      mintable: { kind: 'Not' },
      metadata: none(),
    },
    owner: ALICE,
    token: perm('CanRegisterAssetDefinitionInDomain', { domain: 'garden' }),
  },
  {
    name: 'UnregisterDomain',
    ins: { kind: 'UnregisterDomain', id: 'empty' },
    owner: ALICE,
    token: perm('CanUnregisterDomain', { domain: 'empty' }),
  },
  {
    name: 'SetKeyValue',
    ins: { kind: 'SetKeyValue', target: { kind: 'Domain', id: 'garden' }, key: 'k', value: 1 },
    owner: ALICE,
    token: perm('CanModifyMetadata', { target: 'garden' }),
  },
  {
    name: 'TransferNft',
    ins: { kind: 'TransferNft', id: 'deed$garden', source: ALICE, destination: CAROL },
    owner: ALICE,
    token: undefined,
  },
  {
    name: 'RegisterDomain',
    ins: { kind: 'RegisterDomain', id: 'fresh', metadata: none() },
    owner: undefined,
    token: perm('CanRegisterDomain'),
  },
  {
    name: 'RegisterPeer',
    ins: registerPeer(0x77),
    owner: undefined,
    token: perm('CanManagePeers'),
  },
  {
    name: 'SetParameter',
    ins: { kind: 'SetParameter', parameter: { kind: 'BlockTimeMs', value: 9 } },
    owner: undefined,
    token: perm('CanSetParameters'),
  },
  {
    name: 'RegisterRole',
    ins: { kind: 'RegisterRole', id: 'x', permissions: [] },
    owner: undefined,
    token: perm('CanManageRoles'),
  },
  {
    name: 'GrantPermission',
    ins: { kind: 'GrantPermission', account: CAROL, permission: perm('CanManagePeers') },
    owner: undefined,
    token: perm('CanManagePermissions'),
  },
];

type Actor = 'owner' | 'stranger' | 'admin' | 'token' | 'role';

function actorFor(chain: Chain, c: Case, actor: Actor): string | undefined {
  switch (actor) {
    case 'owner':
      return c.owner;
    case 'stranger':
      return CAROL;
    case 'admin':
      return ADMIN;
    case 'token':
    case 'role':
      if (c.token === undefined) return undefined;
      if (actor === 'token')
        expectCode(
          chain,
          ADMIN,
          [{ kind: 'GrantPermission', account: BOB, permission: c.token }],
          'Committed',
        );
      else {
        expectCode(
          chain,
          ADMIN,
          [
            { kind: 'RegisterRole', id: 'holder', permissions: [c.token] },
            { kind: 'GrantRole', account: BOB, role: 'holder' },
          ],
          'Committed',
        );
      }
      return BOB;
  }
}

describe('permission matrix', () => {
  for (const c of CASES) {
    it(`${c.name}: owner, Admin and token holders may; a stranger may not`, () => {
      for (const actor of ['owner', 'stranger', 'admin', 'token', 'role'] as const) {
        const chain = setup();
        const who = actorFor(chain, c, actor);
        if (who === undefined) continue;
        expectCode(chain, who, [c.ins], actor === 'stranger' ? 'permission_denied' : 'Committed');
      }
    });
  }

  it('a token for one object does not open another', () => {
    const chain = setup();
    const token = perm('CanMintAssetWithDefinition', { asset_definition: 'rose#wonderland' });
    expectCode(chain, ADMIN, [{ kind: 'GrantPermission', account: BOB, permission: token }], 'Committed');
    expectCode(
      chain,
      BOB,
      [{ kind: 'MintAsset', asset: asset(TULIP, BOB), amount: amount('1') }],
      'permission_denied',
    );
  });
});
