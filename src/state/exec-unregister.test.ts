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
  expectCode,
  key,
  perm,
  ROSE,
  registerPeer,
  world,
} from '../../test/fixtures/state/state-fixture.js';

const none = () => new Map();

describe('UnregisterDomain', () => {
  it('removes an empty domain; only its owner (or a token holder) may', () => {
    const chain = world();
    expectCode(chain, BOB, [{ kind: 'UnregisterDomain', id: 'garden' }], 'permission_denied');
    const events = expectCode(chain, ALICE, [{ kind: 'UnregisterDomain', id: 'garden' }], 'Committed');
    assert.deepEqual(events, [{ kind: 'DomainDeleted', id: 'garden' }]);
    assert.equal(chain.state.domain('garden'), undefined);
    expectCode(chain, ADMIN, [{ kind: 'UnregisterDomain', id: 'garden' }], 'domain_not_found');
  });

  it('is allowed with CanUnregisterDomain for that domain', () => {
    const chain = world();
    const grant = perm('CanUnregisterDomain', { domain: 'garden' });
    expectCode(chain, ADMIN, [{ kind: 'GrantPermission', account: BOB, permission: grant }], 'Committed');
    expectCode(chain, BOB, [{ kind: 'UnregisterDomain', id: 'garden' }], 'Committed');
  });

  it('refuses a domain that still holds accounts, definitions or NFTs, and the genesis domain', () => {
    for (const ins of [
      { kind: 'RegisterAccount', id: acc(9, 'garden'), metadata: none() },
      {
        kind: 'RegisterAssetDefinition',
        id: 'x#garden',
        scale: 0,
        mintable: { kind: 'Not' },
        metadata: none(),
      },
      { kind: 'RegisterNft', id: 'x$garden', content: none() },
    ] as const) {
      const chain = world();
      expectCode(chain, ALICE, [ins], 'Committed');
      expectCode(chain, ALICE, [{ kind: 'UnregisterDomain', id: 'garden' }], 'domain_not_empty');
    }
    expectCode(world(), ADMIN, [{ kind: 'UnregisterDomain', id: 'wonderland' }], 'reserved_domain');
  });
});

describe('UnregisterAccount', () => {
  it('removes the account with its assets (lowering totals), permissions and roles', () => {
    const chain = world();
    expectCode(
      chain,
      ADMIN,
      [
        { kind: 'MintAsset', asset: asset(ROSE, BOB), amount: amount('5') },
        { kind: 'MintAsset', asset: asset(ROSE, CAROL), amount: amount('2') },
        { kind: 'GrantPermission', account: BOB, permission: perm('CanManagePeers') },
        { kind: 'RegisterRole', id: 'r', permissions: [] },
        { kind: 'GrantRole', account: BOB, role: 'r' },
      ],
      'Committed',
    );
    const events = expectCode(chain, ADMIN, [{ kind: 'UnregisterAccount', id: BOB }], 'Committed');
    assert.deepEqual(events, [
      { kind: 'AssetRemoved', id: asset(ROSE, BOB), amount: { mantissa: 500n, scale: 2 } },
      { kind: 'AssetDefinitionTotalChanged', id: ROSE, total: { mantissa: 200n, scale: 2 } },
      { kind: 'PermissionRevoked', account: BOB, permission: perm('CanManagePeers') },
      { kind: 'RoleRevoked', account: BOB, role: 'r' },
      { kind: 'AccountDeleted', id: BOB },
    ]);
    assert.equal(chain.state.account(BOB), undefined);
    assert.deepEqual(chain.state.assetsOfAccount(BOB), []);
    assert.deepEqual(chain.state.permissionsOfAccount(BOB), []);
    assert.deepEqual(chain.state.holdersOfRole('r'), []);
    assert.equal(chain.state.assetDefinition(ROSE)!.totalQuantity.mantissa, 200n);
  });

  it('rejects: missing account, non-owner of the domain', () => {
    const chain = world();
    expectCode(chain, ADMIN, [{ kind: 'UnregisterAccount', id: acc(9) }], 'account_not_found');
    expectCode(chain, ALICE, [{ kind: 'UnregisterAccount', id: BOB }], 'permission_denied');
  });
});

describe('UnregisterAssetDefinition', () => {
  it('needs a zero total (invalid_amount otherwise) and the domain owner', () => {
    const chain = world();
    expectCode(
      chain,
      ADMIN,
      [{ kind: 'MintAsset', asset: asset(ROSE, BOB), amount: amount('1') }],
      'Committed',
    );
    expectCode(chain, ADMIN, [{ kind: 'UnregisterAssetDefinition', id: ROSE }], 'invalid_amount');
    expectCode(
      chain,
      ADMIN,
      [{ kind: 'BurnAsset', asset: asset(ROSE, BOB), amount: amount('1') }],
      'Committed',
    );
    expectCode(chain, BOB, [{ kind: 'UnregisterAssetDefinition', id: ROSE }], 'permission_denied');
    const events = expectCode(chain, ADMIN, [{ kind: 'UnregisterAssetDefinition', id: ROSE }], 'Committed');
    assert.deepEqual(events, [{ kind: 'AssetDefinitionDeleted', id: ROSE }]);
    expectCode(chain, ADMIN, [{ kind: 'UnregisterAssetDefinition', id: ROSE }], 'asset_definition_not_found');
  });
});

describe('UnregisterNft', () => {
  it('removes the NFT; only the domain owner may', () => {
    const chain = world();
    expectCode(chain, ALICE, [{ kind: 'RegisterNft', id: 'deed$garden', content: none() }], 'Committed');
    expectCode(chain, BOB, [{ kind: 'UnregisterNft', id: 'deed$garden' }], 'permission_denied');
    const events = expectCode(chain, ALICE, [{ kind: 'UnregisterNft', id: 'deed$garden' }], 'Committed');
    assert.deepEqual(events, [{ kind: 'NftDeleted', id: 'deed$garden' }]);
    expectCode(chain, ALICE, [{ kind: 'UnregisterNft', id: 'deed$garden' }], 'nft_not_found');
  });
});

describe('UnregisterRole', () => {
  it('revokes the role from every holder, in id order', () => {
    const chain = world();
    expectCode(
      chain,
      ADMIN,
      [
        { kind: 'RegisterRole', id: 'r', permissions: [perm('CanManagePeers')] },
        { kind: 'RegisterRole', id: 'q', permissions: [] },
        { kind: 'GrantRole', account: CAROL, role: 'r' },
        { kind: 'GrantRole', account: BOB, role: 'r' },
        { kind: 'GrantRole', account: BOB, role: 'q' },
      ],
      'Committed',
    );
    expectCode(chain, ALICE, [{ kind: 'UnregisterRole', id: 'r' }], 'permission_denied');
    const events = expectCode(chain, ADMIN, [{ kind: 'UnregisterRole', id: 'r' }], 'Committed');
    const [first, second] = [BOB, CAROL].sort();
    assert.deepEqual(events, [
      { kind: 'RoleRevoked', account: first, role: 'r' },
      { kind: 'RoleRevoked', account: second, role: 'r' },
      { kind: 'RoleDeleted', id: 'r' },
    ]);
    assert.deepEqual(chain.state.rolesOfAccount(BOB), ['q']);
    assert.deepEqual(chain.state.rolesOfAccount(CAROL), []);
    expectCode(chain, CAROL, [registerPeer(0x60)], 'permission_denied');
    expectCode(chain, ADMIN, [{ kind: 'UnregisterRole', id: 'r' }], 'role_not_found');
  });
});

describe('UnregisterPeer', () => {
  it('disables a peer at once and keeps its row; needs CanManagePeers', () => {
    const chain = world();
    expectCode(chain, ADMIN, [registerPeer(0x50), registerPeer(0x51)], 'Committed');
    expectCode(chain, BOB, [{ kind: 'UnregisterPeer', peer: key(0x50) }], 'permission_denied');
    const events = expectCode(chain, ADMIN, [{ kind: 'UnregisterPeer', peer: key(0x50) }], 'Committed');
    assert.deepEqual(events, [{ kind: 'PeerRemoved', peer: key(0x50) }]);
    const row = chain.state.peer(key(0x50))!;
    assert.equal(row.disabledAt, chain.height, 'disabled at the height of the unregistering block');
    assert.equal(row.registeredAt, chain.height - 2);
    expectCode(chain, ADMIN, [{ kind: 'UnregisterPeer', peer: key(0x50) }], 'peer_not_found');
    expectCode(chain, ADMIN, [registerPeer(0x50)], 'already_exists');
  });

  it('refuses an unknown peer and the last live validator', () => {
    const chain = world();
    expectCode(chain, ADMIN, [{ kind: 'UnregisterPeer', peer: key(0x52) }], 'peer_not_found');
    expectCode(chain, ADMIN, [registerPeer(0x52)], 'Committed');
    expectCode(chain, ADMIN, [{ kind: 'UnregisterPeer', peer: key(0x52) }], 'last_validator');
    assert.equal(chain.state.peer(key(0x52))!.disabledAt, undefined);
    // Two live peers: one may go, then the other is the last.
    expectCode(chain, ADMIN, [registerPeer(0x53)], 'Committed');
    expectCode(chain, ADMIN, [{ kind: 'UnregisterPeer', peer: key(0x53) }], 'Committed');
    expectCode(chain, ADMIN, [{ kind: 'UnregisterPeer', peer: key(0x52) }], 'last_validator');
  });
});
