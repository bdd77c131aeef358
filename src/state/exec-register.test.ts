import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ADMIN,
  ALICE,
  acc,
  BOB,
  blsKeyPair,
  expectCode,
  key,
  perm,
  ROSE,
  registerPeer,
  world,
} from '../../test/fixtures/state/state-fixture.js';

const none = () => new Map();

describe('RegisterDomain', () => {
  it('creates the domain owned by the authority', () => {
    const chain = world();
    const events = expectCode(
      chain,
      ADMIN,
      [{ kind: 'RegisterDomain', id: 'forest', metadata: new Map([['a', 1]]) }],
      'Committed',
    );
    assert.deepEqual(events, [{ kind: 'DomainCreated', id: 'forest', owner: ADMIN }]);
    assert.deepEqual(chain.state.domain('forest'), {
      id: 'forest',
      ownedBy: ADMIN,
      metadata: new Map([['a', 1]]),
    });
  });

  it('rejects in order: bad id, permission, already_exists, oversized metadata', () => {
    const chain = world();
    expectCode(
      chain,
      ADMIN,
      [{ kind: 'RegisterDomain', id: 'two words', metadata: none() }],
      'invalid_parameter',
    );
    expectCode(chain, BOB, [{ kind: 'RegisterDomain', id: 'garden', metadata: none() }], 'permission_denied');
    expectCode(chain, ADMIN, [{ kind: 'RegisterDomain', id: 'garden', metadata: none() }], 'already_exists');
    const big = new Map(Array.from({ length: 1025 }, (_, i) => [`k${i}`, i] as const));
    expectCode(chain, ADMIN, [{ kind: 'RegisterDomain', id: 'big', metadata: big }], 'execution_limit');
  });

  it('is allowed with CanRegisterDomain', () => {
    const chain = world();
    expectCode(
      chain,
      ADMIN,
      [{ kind: 'GrantPermission', account: BOB, permission: perm('CanRegisterDomain') }],
      'Committed',
    );
    expectCode(chain, BOB, [{ kind: 'RegisterDomain', id: 'bobland', metadata: none() }], 'Committed');
    assert.equal(chain.state.domain('bobland')?.ownedBy, BOB);
  });
});

describe('RegisterAccount', () => {
  it('lets the domain owner register accounts in it', () => {
    const chain = world();
    const id = acc(9, 'garden');
    const events = expectCode(chain, ALICE, [{ kind: 'RegisterAccount', id, metadata: none() }], 'Committed');
    assert.deepEqual(events, [{ kind: 'AccountCreated', id }]);
    assert.equal(chain.state.accountCount(), 5);
  });

  it('rejects: non-canonical id, missing domain, non-owner, duplicate', () => {
    const chain = world();
    expectCode(
      chain,
      ALICE,
      [{ kind: 'RegisterAccount', id: `${key(0xab).toLowerCase()}@garden`, metadata: none() }],
      'invalid_parameter',
    );
    expectCode(
      chain,
      ADMIN,
      [{ kind: 'RegisterAccount', id: acc(9, 'nowhere'), metadata: none() }],
      'domain_not_found',
    );
    expectCode(
      chain,
      BOB,
      [{ kind: 'RegisterAccount', id: acc(9, 'garden'), metadata: none() }],
      'permission_denied',
    );
    expectCode(chain, ADMIN, [{ kind: 'RegisterAccount', id: BOB, metadata: none() }], 'already_exists');
  });

  it('is allowed with CanRegisterAccountInDomain for that domain only', () => {
    const chain = world();
    const grant = perm('CanRegisterAccountInDomain', { domain: 'garden' });
    expectCode(chain, ADMIN, [{ kind: 'GrantPermission', account: BOB, permission: grant }], 'Committed');
    expectCode(
      chain,
      BOB,
      [{ kind: 'RegisterAccount', id: acc(9, 'garden'), metadata: none() }],
      'Committed',
    );
    expectCode(chain, BOB, [{ kind: 'RegisterAccount', id: acc(9), metadata: none() }], 'permission_denied');
  });
});

describe('RegisterAssetDefinition', () => {
  it('creates a definition with total 0 at its scale, owned by the authority', () => {
    const chain = world();
    const events = expectCode(
      chain,
      ALICE,
      [
        {
          kind: 'RegisterAssetDefinition',
          id: 'tulip#garden',
          scale: 28,
          mintable: { kind: 'Once' },
          metadata: none(),
        },
      ],
      'Committed',
    );
    assert.deepEqual(events, [{ kind: 'AssetDefinitionCreated', id: 'tulip#garden', owner: ALICE }]);
    const d = chain.state.assetDefinition('tulip#garden')!;
    assert.deepEqual(d.totalQuantity, { mantissa: 0n, scale: 28 });
    assert.deepEqual(d.mintable, { kind: 'Once' });
    assert.equal(d.ownedBy, ALICE);
  });

  it('rejects: missing domain, non-owner, duplicate, scale above 28', () => {
    const chain = world();
    const reg = (id: string, scale = 0) =>
      [
        { kind: 'RegisterAssetDefinition', id, scale, mintable: { kind: 'Infinitely' }, metadata: none() },
      ] as const;
    expectCode(chain, ADMIN, [...reg('x#nowhere')], 'domain_not_found');
    expectCode(chain, BOB, [...reg('x#garden')], 'permission_denied');
    expectCode(chain, ADMIN, [...reg(ROSE)], 'already_exists');
    expectCode(chain, ADMIN, [...reg('x#garden', 29)], 'invalid_parameter');
    const odd = {
      kind: 'RegisterAssetDefinition',
      id: 'y#garden',
      scale: 0,
      mintable: { kind: 'Twice' },
      metadata: none(),
    };
    expectCode(chain, ADMIN, [odd as never], 'invalid_parameter');
  });
});

describe('RegisterNft', () => {
  it('creates the NFT owned by the authority; only the domain owner may', () => {
    const chain = world();
    const events = expectCode(
      chain,
      ALICE,
      [{ kind: 'RegisterNft', id: 'deed$garden', content: new Map([['x', 'y']]) }],
      'Committed',
    );
    assert.deepEqual(events, [{ kind: 'NftCreated', id: 'deed$garden', owner: ALICE }]);
    assert.deepEqual(chain.state.nft('deed$garden'), {
      id: 'deed$garden',
      content: new Map([['x', 'y']]),
      ownedBy: ALICE,
    });
    expectCode(
      chain,
      BOB,
      [{ kind: 'RegisterNft', id: 'other$garden', content: none() }],
      'permission_denied',
    );
    expectCode(chain, ALICE, [{ kind: 'RegisterNft', id: 'deed$garden', content: none() }], 'already_exists');
    expectCode(
      chain,
      ALICE,
      [{ kind: 'RegisterNft', id: 'deed$nowhere', content: none() }],
      'domain_not_found',
    );
  });
});

describe('RegisterRole', () => {
  it('stores the permissions deduplicated and sorted', () => {
    const chain = world();
    const mint = perm('CanMintAssetWithDefinition', { asset_definition: ROSE });
    const events = expectCode(
      chain,
      ADMIN,
      [
        {
          kind: 'RegisterRole',
          id: 'ops',
          permissions: [perm('CanManagePeers'), mint, perm('CanManagePeers')],
        },
      ],
      'Committed',
    );
    assert.deepEqual(events, [{ kind: 'RoleCreated', id: 'ops' }]);
    assert.deepEqual(chain.state.role('ops')?.permissions, [perm('CanManagePeers'), mint]);
  });

  it('rejects: no CanManageRoles, duplicate, unknown or malformed permission, Admin by a non-Admin', () => {
    const chain = world();
    expectCode(chain, BOB, [{ kind: 'RegisterRole', id: 'r', permissions: [] }], 'permission_denied');
    expectCode(chain, ADMIN, [{ kind: 'RegisterRole', id: 'r', permissions: [] }], 'Committed');
    expectCode(chain, ADMIN, [{ kind: 'RegisterRole', id: 'r', permissions: [] }], 'already_exists');
    expectCode(
      chain,
      ADMIN,
      [{ kind: 'RegisterRole', id: 's', permissions: [perm('CanFly')] }],
      'invalid_parameter',
    );
    const bad = perm('CanMintAssetWithDefinition', { domain: 'x' });
    expectCode(chain, ADMIN, [{ kind: 'RegisterRole', id: 's', permissions: [bad] }], 'invalid_parameter');
    expectCode(
      chain,
      ADMIN,
      [{ kind: 'GrantPermission', account: BOB, permission: perm('CanManageRoles') }],
      'Committed',
    );
    expectCode(
      chain,
      BOB,
      [{ kind: 'RegisterRole', id: 's', permissions: [perm('Admin')] }],
      'permission_denied',
    );
    expectCode(
      chain,
      BOB,
      [{ kind: 'RegisterRole', id: 's', permissions: [perm('CanManagePeers')] }],
      'Committed',
    );
  });
});

describe('RegisterPeer', () => {
  it('adds a peer with its BLS key, active from the next height; needs CanManagePeers', () => {
    const chain = world();
    const ins = registerPeer(0x50);
    const events = expectCode(chain, ADMIN, [ins], 'Committed');
    assert.deepEqual(events, [{ kind: 'PeerAdded', peer: key(0x50) }]);
    assert.deepEqual(chain.state.listPeers(), [
      {
        id: key(0x50),
        address: '10.0.0.80:1337',
        blsKey: ins.blsKey,
        registeredAt: chain.height,
        activeFrom: chain.height + 1,
      },
    ]);
    expectCode(chain, ADMIN, [registerPeer(0x50)], 'already_exists');
    expectCode(chain, BOB, [registerPeer(0x51)], 'permission_denied');
    expectCode(chain, ADMIN, [{ ...registerPeer(0x52), peer: 'not-a-key' }], 'invalid_parameter');
    expectCode(chain, ADMIN, [{ ...registerPeer(0x52), address: 'x'.repeat(257) }], 'invalid_parameter');
  });

  it('verifies the proof of possession', () => {
    const chain = world();
    const own = registerPeer(0x50);
    const other = registerPeer(0x51);
    // Another key's (valid) proof, random bytes, and a proof signed by the right key over the wrong message.
    expectCode(chain, ADMIN, [{ ...own, pop: other.pop }], 'invalid_proof_of_possession');
    const random = new Uint8Array(96).map((_, i) => (i * 37 + 11) & 0xff);
    expectCode(chain, ADMIN, [{ ...own, pop: random }], 'invalid_proof_of_possession');
    const wrongMessage = blsKeyPair(0x50).sign(new TextEncoder().encode('not the key'));
    expectCode(chain, ADMIN, [{ ...own, pop: wrongMessage }], 'invalid_proof_of_possession');
    assert.deepEqual(chain.state.listPeers(), []);
    expectCode(chain, ADMIN, [own], 'Committed');
  });

  it('refuses a BLS key already used, even by a disabled peer, and keys that are not BLS', () => {
    const chain = world();
    const first = registerPeer(0x50);
    expectCode(chain, ADMIN, [first, registerPeer(0x51)], 'Committed');
    expectCode(chain, ADMIN, [{ ...first, peer: key(0x52) }], 'already_exists');
    expectCode(chain, ADMIN, [{ kind: 'UnregisterPeer', peer: key(0x50) }], 'Committed');
    expectCode(chain, ADMIN, [{ ...first, peer: key(0x52) }], 'already_exists');
    expectCode(chain, ADMIN, [{ ...registerPeer(0x52), blsKey: key(0x52) }], 'invalid_parameter');
    // Two registrations of one key in the same transaction: the second sees the first.
    expectCode(
      chain,
      ADMIN,
      [registerPeer(0x53), { ...registerPeer(0x53), peer: key(0x54) }],
      'already_exists',
    );
  });
});
