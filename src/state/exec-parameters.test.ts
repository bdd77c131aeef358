import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ADMIN, BOB, Chain, expectCode, perm, world } from '../../test/fixtures/state/state-fixture.js';
import { encode } from '../codec/frame.js';
import { hash } from '../crypto/hash.js';
import { type UpgradeManifest, UpgradeManifestCodec } from '../model/entities.js';
import { toHex } from '../util/hex.js';

describe('SetParameter', () => {
  it('sets each numeric parameter and custom ones', () => {
    const chain = world();
    const set = (parameter: object) => ({ kind: 'SetParameter', parameter }) as never;
    expectCode(
      chain,
      ADMIN,
      [
        set({ kind: 'BlockMaxTransactions', value: 10 }),
        set({ kind: 'BlockTimeMs', value: 20 }),
        set({ kind: 'CommitTimeMs', value: 30 }),
        set({ kind: 'MaxClockDriftMs', value: 40 }),
        set({ kind: 'TransactionMaxInstructions', value: 50 }),
        set({ kind: 'TransactionMaxBytes', value: 60 }),
        set({ kind: 'BlockMaxWeight', value: 500_000 }),
        set({ kind: 'TransactionMaxWeight', value: 400_000 }),
        set({ kind: 'Custom', id: 'fee', payload: { bps: 5 } }),
      ],
      'Committed',
    );
    assert.deepEqual(chain.state.parameters(), {
      blockMaxTransactions: 10,
      blockTimeMs: 20,
      commitTimeMs: 30,
      maxClockDriftMs: 40,
      transactionMaxInstructions: 50,
      transactionMaxBytes: 60,
      custom: new Map([['fee', { bps: 5 }]]),
      transactionMaxWeight: 400_000,
      blockMaxWeight: 500_000,
    });
  });

  it('ShieldedNoteMinUnits: kept under its reserved custom id, in range, not writable as a custom parameter', () => {
    const chain = world();
    const set = (parameter: object) => ({ kind: 'SetParameter', parameter }) as never;
    const min = (value: number) => set({ kind: 'ShieldedNoteMinUnits', value });
    expectCode(chain, ADMIN, [min(0)], 'invalid_parameter');
    expectCode(chain, ADMIN, [min(2 ** 53)], 'invalid_parameter');
    expectCode(
      chain,
      ADMIN,
      [set({ kind: 'Custom', id: 'shielded_note_min_units', payload: 1 })],
      'invalid_parameter',
    );
    expectCode(chain, BOB, [min(5)], 'permission_denied');
    expectCode(chain, ADMIN, [min(5_000)], 'Committed');
    assert.equal(chain.state.parameters().custom.get('shielded_note_min_units'), 5_000);
    assert.equal(chain.state.parameters().blockMaxTransactions, 512, 'the numeric fields are untouched');
  });

  it('bounds the weight caps: a SetParameter always fits, a transaction at the cap fits a block', () => {
    const chain = world();
    const set = (kind: string, value: number) =>
      ({ kind: 'SetParameter', parameter: { kind, value } }) as never;
    expectCode(chain, ADMIN, [set('TransactionMaxWeight', 999)], 'invalid_parameter');
    expectCode(chain, ADMIN, [set('BlockMaxWeight', 60_000_001)], 'invalid_parameter');
    // The default block (250,000) keeps a fifth for triggers: 200,000 is the most a transaction may take.
    expectCode(chain, ADMIN, [set('TransactionMaxWeight', 200_001)], 'invalid_parameter');
    expectCode(chain, ADMIN, [set('TransactionMaxWeight', 200_000)], 'Committed');
    expectCode(chain, ADMIN, [set('BlockMaxWeight', 240_000)], 'invalid_parameter');
    expectCode(chain, ADMIN, [set('BlockMaxWeight', 250_000)], 'Committed');
    assert.equal(chain.state.parameters().transactionMaxWeight, 200_000);
  });

  it('rejects zero, absurd values and callers without CanSetParameters', () => {
    const chain = world();
    const set = (value: number) =>
      ({ kind: 'SetParameter', parameter: { kind: 'BlockTimeMs', value } }) as const;
    expectCode(chain, ADMIN, [set(0)], 'invalid_parameter');
    expectCode(chain, ADMIN, [set(3_600_001)], 'invalid_parameter');
    expectCode(chain, BOB, [set(5)], 'permission_denied');
    expectCode(
      chain,
      ADMIN,
      [{ kind: 'GrantPermission', account: BOB, permission: perm('CanSetParameters') }],
      'Committed',
    );
    const events = expectCode(chain, BOB, [set(5)], 'Committed');
    assert.deepEqual(events, [{ kind: 'ParameterChanged', parameter: { kind: 'BlockTimeMs', value: 5 } }]);
  });
});

describe('Log', () => {
  it('emits a Logged event and changes nothing', () => {
    const chain = world();
    const root = chain.state.stateRoot();
    const events = expectCode(
      chain,
      BOB,
      [{ kind: 'Log', level: { kind: 'Warn' }, message: 'hi' }],
      'Committed',
    );
    assert.deepEqual(events, [{ kind: 'Logged', level: { kind: 'Warn' }, message: 'hi' }]);
    assert.deepEqual(chain.state.stateRoot(), root);
  });
});

describe('runtime upgrades', () => {
  const manifest = (abiVersion: number, startHeight: number, endHeight?: number): UpgradeManifest => {
    const m: UpgradeManifest = {
      name: 'v2',
      description: 'd',
      abiVersion,
      abiHash: '00'.repeat(32),
      startHeight,
    };
    if (endHeight !== undefined) m.endHeight = endHeight;
    return m;
  };
  const idOf = (m: UpgradeManifest) => toHex(hash(encode(UpgradeManifestCodec, m)));

  it('proposes with id = hash of the manifest, then activates', () => {
    const chain = world(); // height 2; the next block is 3
    const m = manifest(2, 10, 20);
    const id = idOf(m);
    assert.deepEqual(
      expectCode(chain, ADMIN, [{ kind: 'ProposeRuntimeUpgrade', manifest: m }], 'Committed'),
      [{ kind: 'UpgradeProposed', id }],
    );
    assert.deepEqual(chain.state.upgrade(id), {
      id,
      manifest: m,
      status: { kind: 'Proposed' },
      proposer: ADMIN,
      createdHeight: 3,
    });
    expectCode(chain, ADMIN, [{ kind: 'ProposeRuntimeUpgrade', manifest: m }], 'already_exists');
    assert.deepEqual(expectCode(chain, ADMIN, [{ kind: 'ActivateRuntimeUpgrade', id }], 'Committed'), [
      { kind: 'UpgradeActivated', id, height: 5 },
    ]);
    assert.deepEqual(chain.state.upgrade(id)?.status, { kind: 'ActivatedAt', height: 5 });
    assert.equal(chain.state.abiVersion(), 2);
    expectCode(chain, ADMIN, [{ kind: 'ActivateRuntimeUpgrade', id }], 'upgrade_invalid_state');
    expectCode(chain, ADMIN, [{ kind: 'CancelRuntimeUpgrade', id }], 'upgrade_invalid_state');
    expectCode(
      chain,
      ADMIN,
      [{ kind: 'ProposeRuntimeUpgrade', manifest: manifest(2, 50) }],
      'upgrade_invalid_manifest',
    );
  });

  it('cancels a proposal; rejects unknown ids and bad manifests', () => {
    const chain = world();
    const m = manifest(3, 100);
    const id = idOf(m);
    expectCode(chain, ADMIN, [{ kind: 'ProposeRuntimeUpgrade', manifest: m }], 'Committed');
    assert.deepEqual(expectCode(chain, ADMIN, [{ kind: 'CancelRuntimeUpgrade', id }], 'Committed'), [
      { kind: 'UpgradeCanceled', id },
    ]);
    assert.deepEqual(chain.state.upgrade(id)?.status, { kind: 'Canceled' });
    expectCode(chain, ADMIN, [{ kind: 'ActivateRuntimeUpgrade', id }], 'upgrade_invalid_state');
    const unknown = 'ab'.repeat(32);
    expectCode(chain, ADMIN, [{ kind: 'ActivateRuntimeUpgrade', id: unknown }], 'upgrade_not_found');
    expectCode(chain, ADMIN, [{ kind: 'CancelRuntimeUpgrade', id: unknown }], 'upgrade_not_found');
    expectCode(
      chain,
      ADMIN,
      [{ kind: 'ProposeRuntimeUpgrade', manifest: manifest(1, 100) }],
      'upgrade_invalid_manifest',
    );
    expectCode(
      chain,
      ADMIN,
      [{ kind: 'ProposeRuntimeUpgrade', manifest: manifest(2, 1) }],
      'upgrade_invalid_manifest',
    );
    expectCode(
      chain,
      ADMIN,
      [{ kind: 'ProposeRuntimeUpgrade', manifest: manifest(2, 100, 100) }],
      'upgrade_invalid_manifest',
    );
  });

  it('needs CanManageRuntimeUpgrades', () => {
    const chain = world();
    const m = manifest(2, 100);
    expectCode(chain, BOB, [{ kind: 'ProposeRuntimeUpgrade', manifest: m }], 'permission_denied');
    expectCode(chain, ADMIN, [{ kind: 'ProposeRuntimeUpgrade', manifest: m }], 'Committed');
    expectCode(chain, BOB, [{ kind: 'ActivateRuntimeUpgrade', id: idOf(m) }], 'permission_denied');
    expectCode(chain, BOB, [{ kind: 'CancelRuntimeUpgrade', id: idOf(m) }], 'permission_denied');
    const token = perm('CanManageRuntimeUpgrades');
    expectCode(chain, ADMIN, [{ kind: 'GrantPermission', account: BOB, permission: token }], 'Committed');
    expectCode(chain, BOB, [{ kind: 'ActivateRuntimeUpgrade', id: idOf(m) }], 'Committed');
  });

  it('starts at ABI version 1', () => {
    assert.equal(Chain.genesis().state.abiVersion(), 1);
  });
});
