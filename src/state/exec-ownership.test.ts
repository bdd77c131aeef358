import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ADMIN,
  ALICE,
  acc,
  BOB,
  CAROL,
  expectCode,
  perm,
  ROSE,
  world,
} from '../../test/fixtures/state/state-fixture.js';
import type { Instruction, MetadataTarget } from '../model/instructions.js';

describe('TransferNft', () => {
  it('moves ownership when source is the owner; the owner or domain owner may', () => {
    const chain = world();
    expectCode(chain, ALICE, [{ kind: 'RegisterNft', id: 'deed$garden', content: new Map() }], 'Committed');
    const move = (source: string, destination: string) =>
      ({ kind: 'TransferNft', id: 'deed$garden', source, destination }) as const;
    const events = expectCode(chain, ALICE, [move(ALICE, BOB)], 'Committed');
    assert.deepEqual(events, [{ kind: 'NftOwnerChanged', id: 'deed$garden', owner: BOB }]);
    expectCode(chain, BOB, [move(BOB, CAROL)], 'Committed');
    expectCode(chain, BOB, [move(CAROL, BOB)], 'permission_denied');
    expectCode(chain, ALICE, [move(BOB, ALICE)], 'not_owner');
    expectCode(chain, ALICE, [move(CAROL, CAROL)], 'same_account');
    expectCode(chain, ALICE, [move(CAROL, acc(9))], 'account_not_found');
    expectCode(
      chain,
      ALICE,
      [{ kind: 'TransferNft', id: 'x$garden', source: CAROL, destination: BOB }],
      'nft_not_found',
    );
    expectCode(chain, ALICE, [move(CAROL, ALICE)], 'Committed');
  });
});

describe('TransferDomain', () => {
  it('moves the domain to another account; only its owner may', () => {
    const chain = world();
    const move = (source: string, destination: string) =>
      ({ kind: 'TransferDomain', id: 'garden', source, destination }) as const;
    expectCode(chain, BOB, [move(ALICE, BOB)], 'permission_denied');
    expectCode(chain, ALICE, [move(BOB, CAROL)], 'not_owner');
    expectCode(chain, ALICE, [move(ALICE, ALICE)], 'same_account');
    expectCode(chain, ALICE, [move(ALICE, acc(9))], 'account_not_found');
    expectCode(
      chain,
      ALICE,
      [{ kind: 'TransferDomain', id: 'nope', source: ALICE, destination: BOB }],
      'domain_not_found',
    );
    const events = expectCode(chain, ALICE, [move(ALICE, BOB)], 'Committed');
    assert.deepEqual(events, [{ kind: 'DomainOwnerChanged', id: 'garden', owner: BOB }]);
    assert.equal(chain.state.domain('garden')?.ownedBy, BOB);
    expectCode(
      chain,
      ALICE,
      [{ kind: 'RegisterNft', id: 'n$garden', content: new Map() }],
      'permission_denied',
    );
  });
});

describe('SetKeyValue / RemoveKeyValue', () => {
  const targets: [MetadataTarget, string, string][] = [
    [{ kind: 'Domain', id: 'garden' }, ALICE, BOB],
    [{ kind: 'Account', id: BOB }, BOB, CAROL],
    [{ kind: 'AssetDefinition', id: ROSE }, ADMIN, BOB],
    [{ kind: 'Nft', id: 'deed$garden' }, ALICE, BOB],
  ];
  for (const [target, owner, stranger] of targets) {
    it(`sets and removes ${target.kind} metadata; owner yes, stranger no`, () => {
      const chain = world();
      expectCode(chain, ALICE, [{ kind: 'RegisterNft', id: 'deed$garden', content: new Map() }], 'Committed');
      const set: Instruction = { kind: 'SetKeyValue', target, key: 'color', value: { rgb: [1, 2, 3] } };
      const remove = { kind: 'RemoveKeyValue', target, key: 'color' } as const;
      expectCode(chain, stranger, [set], 'permission_denied');
      assert.deepEqual(expectCode(chain, owner, [set], 'Committed'), [{ ...set, kind: 'MetadataSet' }]);
      const read = () => {
        const s = chain.state;
        if (target.kind === 'Domain') return s.domain(target.id)!.metadata;
        if (target.kind === 'Account') return s.account(target.id)!.metadata;
        if (target.kind === 'AssetDefinition') return s.assetDefinition(target.id)!.metadata;
        return s.nft(target.id)!.content;
      };
      assert.deepEqual(read().get('color'), { rgb: [1, 2, 3] });
      expectCode(chain, stranger, [remove], 'permission_denied');
      assert.deepEqual(expectCode(chain, owner, [remove], 'Committed'), [
        { ...remove, kind: 'MetadataRemoved' },
      ]);
      assert.equal(read().has('color'), false);
      expectCode(chain, owner, [remove], 'metadata_key_not_found');
      const grant = perm('CanModifyMetadata', { target: target.id });
      expectCode(
        chain,
        ADMIN,
        [{ kind: 'GrantPermission', account: stranger, permission: grant }],
        'Committed',
      );
      expectCode(chain, stranger, [set], 'Committed');
    });
  }

  it('rejects missing targets of every kind', () => {
    const chain = world();
    const cases: [MetadataTarget, string][] = [
      [{ kind: 'Domain', id: 'nope' }, 'domain_not_found'],
      [{ kind: 'Account', id: acc(9) }, 'account_not_found'],
      [{ kind: 'AssetDefinition', id: 'x#nope' }, 'asset_definition_not_found'],
      [{ kind: 'Nft', id: 'x$nope' }, 'nft_not_found'],
    ];
    for (const [target, code] of cases) {
      expectCode(chain, ADMIN, [{ kind: 'SetKeyValue', target, key: 'k', value: 1 }], code);
      expectCode(chain, ADMIN, [{ kind: 'RemoveKeyValue', target, key: 'k' }], code);
    }
  });
});
