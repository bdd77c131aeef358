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
  perm,
  ROSE,
  world,
} from '../../test/fixtures/state/state-fixture.js';
import { MANTISSA_MAX } from '../model/numeric.js';

const none = () => new Map();
const mint = (account: string, a: string, definition = ROSE) =>
  ({ kind: 'MintAsset', asset: asset(definition, account), amount: amount(a) }) as const;
const burn = (account: string, a: string) =>
  ({ kind: 'BurnAsset', asset: asset(ROSE, account), amount: amount(a) }) as const;
const send = (from: string, to: string, a: string) =>
  ({ kind: 'TransferAsset', source: asset(ROSE, from), destination: to, amount: amount(a) }) as const;
const balance = (chain: ReturnType<typeof world>, account: string) =>
  chain.state.asset(asset(ROSE, account))?.value;

describe('MintAsset', () => {
  it('adds to the balance and the total, at the definition scale', () => {
    const chain = world();
    const events = expectCode(chain, ADMIN, [mint(BOB, '1.5'), mint(BOB, '2.50')], 'Committed');
    assert.deepEqual(balance(chain, BOB), { mantissa: 400n, scale: 2 });
    assert.deepEqual(chain.state.assetDefinition(ROSE)!.totalQuantity, { mantissa: 400n, scale: 2 });
    assert.deepEqual(events.slice(0, 2), [
      { kind: 'AssetAdded', id: asset(ROSE, BOB), amount: { mantissa: 150n, scale: 2 } },
      { kind: 'AssetDefinitionTotalChanged', id: ROSE, total: { mantissa: 150n, scale: 2 } },
    ]);
  });

  it('rejects in order: definition, account, permission, amount', () => {
    const chain = world();
    expectCode(chain, ADMIN, [mint(BOB, '1', 'nope#wonderland')], 'asset_definition_not_found');
    expectCode(chain, ADMIN, [mint(acc(9), '1')], 'account_not_found');
    expectCode(chain, BOB, [mint(BOB, '1')], 'permission_denied');
    expectCode(chain, ADMIN, [mint(BOB, '0')], 'invalid_amount');
    expectCode(chain, ADMIN, [mint(BOB, '0.001')], 'invalid_amount');
    expectCode(chain, ADMIN, [mint(BOB, '0.010')], 'Committed');
  });

  it('honours Mintable Once (then Not) and Not', () => {
    const chain = world();
    const reg = (id: string, kind: 'Once' | 'Not') =>
      ({ kind: 'RegisterAssetDefinition', id, scale: 0, mintable: { kind }, metadata: none() }) as const;
    expectCode(chain, ADMIN, [reg('once#wonderland', 'Once'), reg('never#wonderland', 'Not')], 'Committed');
    expectCode(chain, ADMIN, [mint(BOB, '1', 'never#wonderland')], 'not_mintable');
    expectCode(chain, ADMIN, [mint(BOB, '7', 'once#wonderland')], 'Committed');
    assert.deepEqual(chain.state.assetDefinition('once#wonderland')!.mintable, { kind: 'Not' });
    expectCode(chain, ADMIN, [mint(BOB, '1', 'once#wonderland')], 'not_mintable');
  });

  it('refuses to pass 2^128-1 in a balance or the total', () => {
    const chain = world();
    expectCode(
      chain,
      ADMIN,
      [
        {
          kind: 'RegisterAssetDefinition',
          id: 'big#wonderland',
          scale: 0,
          mintable: { kind: 'Infinitely' },
          metadata: none(),
        },
      ],
      'Committed',
    );
    const max = { mantissa: MANTISSA_MAX, scale: 0 };
    expectCode(
      chain,
      ADMIN,
      [{ kind: 'MintAsset', asset: asset('big#wonderland', BOB), amount: max }],
      'Committed',
    );
    expectCode(chain, ADMIN, [mint(CAROL, '1', 'big#wonderland')], 'overflow');
    // Scaling 2^128-1 up to the definition scale overflows as well.
    expectCode(chain, ADMIN, [{ kind: 'MintAsset', asset: asset(ROSE, BOB), amount: max }], 'overflow');
  });

  it('is allowed for the definition owner, the domain owner and CanMintAssetWithDefinition', () => {
    const chain = world();
    expectCode(
      chain,
      ALICE,
      [
        {
          kind: 'RegisterAssetDefinition',
          id: 'tulip#garden',
          scale: 0,
          mintable: { kind: 'Infinitely' },
          metadata: none(),
        },
      ],
      'Committed',
    );
    expectCode(chain, ALICE, [mint(BOB, '1', 'tulip#garden')], 'Committed');
    expectCode(chain, CAROL, [mint(BOB, '1')], 'permission_denied');
    const token = perm('CanMintAssetWithDefinition', { asset_definition: ROSE });
    expectCode(chain, ADMIN, [{ kind: 'GrantPermission', account: CAROL, permission: token }], 'Committed');
    expectCode(chain, CAROL, [mint(BOB, '1')], 'Committed');
    expectCode(chain, CAROL, [mint(BOB, '1', 'tulip#garden')], 'permission_denied');
  });
});

describe('BurnAsset', () => {
  it('lowers balance and total; a zero balance deletes the asset', () => {
    const chain = world();
    expectCode(chain, ADMIN, [mint(BOB, '3')], 'Committed');
    const events = expectCode(chain, BOB, [burn(BOB, '1')], 'Committed');
    assert.deepEqual(events, [
      { kind: 'AssetRemoved', id: asset(ROSE, BOB), amount: { mantissa: 100n, scale: 2 } },
      { kind: 'AssetDefinitionTotalChanged', id: ROSE, total: { mantissa: 200n, scale: 2 } },
    ]);
    expectCode(chain, ADMIN, [burn(BOB, '2')], 'Committed');
    assert.equal(chain.state.asset(asset(ROSE, BOB)), undefined);
    assert.deepEqual(chain.state.holdersOfDefinition(ROSE), []);
    assert.equal(chain.state.assetDefinition(ROSE)!.totalQuantity.mantissa, 0n);
  });

  it('rejects: more than the balance, a missing asset, a bad amount, a stranger', () => {
    const chain = world();
    expectCode(chain, ADMIN, [mint(BOB, '3')], 'Committed');
    expectCode(chain, BOB, [burn(BOB, '3.01')], 'insufficient_funds');
    expectCode(chain, CAROL, [burn(CAROL, '1')], 'insufficient_funds');
    expectCode(chain, BOB, [burn(BOB, '0')], 'invalid_amount');
    expectCode(chain, CAROL, [burn(BOB, '1')], 'permission_denied');
  });
});

describe('TransferAsset', () => {
  it('moves the amount and creates the destination asset', () => {
    const chain = world();
    expectCode(chain, ADMIN, [mint(BOB, '10')], 'Committed');
    const events = expectCode(chain, BOB, [send(BOB, CAROL, '2.25')], 'Committed');
    assert.deepEqual(balance(chain, BOB), { mantissa: 775n, scale: 2 });
    assert.deepEqual(balance(chain, CAROL), { mantissa: 225n, scale: 2 });
    assert.deepEqual(chain.state.assetDefinition(ROSE)!.totalQuantity.mantissa, 1000n);
    assert.deepEqual(events, [
      { kind: 'AssetRemoved', id: asset(ROSE, BOB), amount: { mantissa: 225n, scale: 2 } },
      { kind: 'AssetAdded', id: asset(ROSE, CAROL), amount: { mantissa: 225n, scale: 2 } },
    ]);
    expectCode(chain, CAROL, [send(CAROL, BOB, '2.25')], 'Committed');
    assert.equal(chain.state.asset(asset(ROSE, CAROL)), undefined);
  });

  it('rejects: missing destination, a stranger, zero, same account, too much', () => {
    const chain = world();
    expectCode(chain, ADMIN, [mint(BOB, '10')], 'Committed');
    expectCode(chain, BOB, [send(BOB, acc(9), '1')], 'account_not_found');
    expectCode(chain, CAROL, [send(BOB, CAROL, '1')], 'permission_denied');
    expectCode(chain, BOB, [send(BOB, CAROL, '0')], 'invalid_amount');
    expectCode(chain, BOB, [send(BOB, BOB, '1')], 'same_account');
    expectCode(chain, BOB, [send(BOB, CAROL, '10.01')], 'insufficient_funds');
    expectCode(chain, ALICE, [send(ALICE, CAROL, '1')], 'insufficient_funds');
  });

  it('is allowed with CanTransferAssetWithDefinition', () => {
    const chain = world();
    const token = perm('CanTransferAssetWithDefinition', { asset_definition: ROSE });
    expectCode(
      chain,
      ADMIN,
      [mint(BOB, '10'), { kind: 'GrantPermission', account: CAROL, permission: token }],
      'Committed',
    );
    expectCode(chain, CAROL, [send(BOB, ALICE, '1')], 'Committed');
    assert.deepEqual(balance(chain, ALICE), { mantissa: 100n, scale: 2 });
  });
});
