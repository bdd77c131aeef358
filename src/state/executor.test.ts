import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ADMIN,
  ALICE,
  acc,
  amount,
  asset,
  BOB,
  CHAIN_ID,
  Chain,
  Disk,
  genesisInstructions,
  outcome,
  ROSE,
  recomputeRoot,
  scenarioBlocks,
  tx,
  world,
} from '../../test/fixtures/state/state-fixture.js';
import { transactionHash } from '../model/transaction.js';
import { toHex } from '../util/hex.js';
import { BlockExecution } from './executor.js';
import { WorldState } from './world-state.js';

const ctx = (height: number) => ({
  height,
  blockTimeMs: height * 1000,
  chainId: CHAIN_ID,
  genesis: height === 1,
});
const hex = (b: Uint8Array) => toHex(b);

describe('BlockExecution', () => {
  it('leaves the base untouched until commit()', () => {
    const chain = Chain.genesis();
    const before = chain.state.stateRoot();
    const exec = new BlockExecution(chain.state, ctx(2));
    const t = tx(ADMIN, [{ kind: 'RegisterAccount', id: ALICE, metadata: new Map() }]);
    assert.equal(exec.apply(t, transactionHash(t)).result.kind, 'Committed');
    assert.equal(chain.state.account(ALICE), undefined);
    assert.equal(chain.state.accountCount(), 1);
    assert.deepEqual(chain.state.stateRoot(), before);
    assert.notDeepEqual(exec.stateRoot(), before);
    const predicted = exec.stateRoot();
    exec.commit();
    assert.ok(chain.state.account(ALICE));
    assert.equal(chain.state.accountCount(), 2);
    assert.deepEqual(chain.state.stateRoot(), predicted);
  });

  it('makes a transaction atomic: a failing third instruction leaves no trace of the first two', () => {
    const chain = Chain.genesis();
    const root = chain.state.stateRoot();
    const exec = new BlockExecution(chain.state, ctx(2));
    const t = tx(ADMIN, [
      { kind: 'RegisterAccount', id: ALICE, metadata: new Map() },
      {
        kind: 'RegisterAssetDefinition',
        id: ROSE,
        scale: 0,
        mintable: { kind: 'Infinitely' },
        metadata: new Map(),
      },
      { kind: 'MintAsset', asset: asset(ROSE, ALICE), amount: amount('1.5') },
    ]);
    const out = exec.apply(t, transactionHash(t));
    assert.equal(out.result.kind, 'Rejected');
    assert.equal(out.result.kind === 'Rejected' && out.result.reason.code, 'invalid_amount');
    assert.equal(out.result.kind === 'Rejected' && out.result.reason.instructionIndex, 2);
    assert.deepEqual(out.events, []);
    assert.deepEqual(exec.changes(), []);
    assert.deepEqual(exec.stateRoot(), root);
    // A later transaction in the same block does not see the rolled-back account.
    const t2 = tx(ADMIN, [{ kind: 'MintAsset', asset: asset(ROSE, ALICE), amount: amount('1') }], 1);
    assert.equal(outcome(exec.apply(t2, transactionHash(t2)).result), 'asset_definition_not_found');
    exec.commit();
    assert.deepEqual(chain.state.stateRoot(), root);
  });

  it('keeps accepted transactions when a later one in the block is rejected', () => {
    const chain = Chain.genesis();
    const out = chain.block([
      tx(ADMIN, [{ kind: 'RegisterAccount', id: ALICE, metadata: new Map() }]),
      tx(ADMIN, [{ kind: 'RegisterAccount', id: ALICE, metadata: new Map() }], 1),
    ]);
    assert.deepEqual(out.results.map(outcome), ['Committed', 'already_exists']);
    assert.ok(chain.state.account(ALICE));
  });

  it('sees rows written earlier in the same block through the overlay indexes', () => {
    const chain = world();
    const exec = new BlockExecution(chain.state, ctx(3));
    const t1 = tx(ALICE, [{ kind: 'RegisterAccount', id: acc(9, 'garden'), metadata: new Map() }]);
    const t2 = tx(ALICE, [{ kind: 'UnregisterDomain', id: 'garden' }], 1);
    const t3 = tx(
      ADMIN,
      [
        { kind: 'MintAsset', asset: asset(ROSE, BOB), amount: amount('2') },
        { kind: 'UnregisterAccount', id: BOB },
      ],
      2,
    );
    assert.equal(outcome(exec.apply(t1, transactionHash(t1)).result), 'Committed');
    assert.equal(outcome(exec.apply(t2, transactionHash(t2)).result), 'domain_not_empty');
    assert.equal(outcome(exec.apply(t3, transactionHash(t3)).result), 'Committed');
    exec.commit();
    assert.equal(chain.state.assetDefinition(ROSE)!.totalQuantity.mantissa, 0n);
    assert.deepEqual(chain.state.holdersOfDefinition(ROSE), []);
  });

  it('rolls back a transaction whose handler throws, then rethrows', () => {
    const chain = Chain.genesis();
    const exec = new BlockExecution(chain.state, ctx(2));
    const bad = tx(ADMIN, [
      { kind: 'RegisterAccount', id: ALICE, metadata: new Map() },
      { kind: 'NoSuchInstruction' } as never,
    ]);
    assert.throws(() => exec.apply(bad, new Uint8Array(32)), /no handler/);
    assert.deepEqual(exec.changes(), []);
  });

  it('rejects an unknown authority outside genesis, with no instruction index', () => {
    const chain = Chain.genesis();
    const { result } = chain.run(BOB, [{ kind: 'Log', level: { kind: 'Info' }, message: 'x' }]);
    assert.equal(result.kind === 'Rejected' && result.reason.code, 'authority_not_found');
    assert.equal(result.kind === 'Rejected' && result.reason.instructionIndex, undefined);
  });

  it('runs genesis without permission checks and reserves the genesis domain', () => {
    const chain = Chain.genesis();
    assert.equal(chain.state.genesisDomain(), 'wonderland');
    assert.deepEqual(chain.state.permissionsOfAccount(ADMIN), [{ name: 'Admin', payload: null }]);
    const { result } = chain.run(ADMIN, [{ kind: 'UnregisterDomain', id: 'wonderland' }]);
    assert.equal(outcome(result), 'reserved_domain');
  });

  it('refuses to commit an execution prepared against an older state', () => {
    const chain = Chain.genesis();
    const a = new BlockExecution(chain.state, ctx(2));
    const b = new BlockExecution(chain.state, ctx(2));
    a.commit();
    assert.throws(() => b.commit(), /older state/);
    assert.throws(() => a.commit(), /already committed/);
  });

  it('is deterministic: the same blocks on two fresh states give identical roots, changes and events', () => {
    const run = () => {
      const chain = new Chain();
      return [[tx(ADMIN, genesisInstructions())], ...scenarioBlocks()].map((b) => chain.block(b));
    };
    const a = run();
    const b = run();
    assert.deepEqual(a, b);
    assert.ok(a.every((o) => o.changes.length > 0));
    // Changes come sorted by key.
    for (const o of a) {
      const keys = o.changes.map((c) => hex(c.key));
      assert.deepEqual(keys, [...keys].sort());
    }
  });

  it('keeps the incremental root equal to a full recompute, and changes() in step with the state', () => {
    const chain = new Chain();
    const disk = new Disk();
    for (const block of [[tx(ADMIN, genesisInstructions())], ...scenarioBlocks()]) {
      const out = chain.block(block);
      disk.apply(out.changes);
      assert.deepEqual(chain.state.stateRoot(), out.root);
      assert.deepEqual(recomputeRoot(chain.state.entries()), out.root);
      assert.deepEqual(
        disk.entries().map((e) => [hex(e.key), hex(e.value)]),
        [...chain.state.entries()].map((e) => [hex(e.key), hex(e.value)]),
      );
      assert.deepEqual(WorldState.fromEntries(disk.entries()).stateRoot(), out.root);
    }
  });

  it('replaying the blocks from scratch gives the live state', () => {
    const blocks = [[tx(ADMIN, genesisInstructions())], ...scenarioBlocks()];
    const live = new Chain();
    for (const b of blocks) live.block(b);
    const replay = new Chain();
    for (const b of blocks) replay.block(b);
    assert.deepEqual(replay.state.stateRoot(), live.state.stateRoot());
    assert.deepEqual(replay.state.listAssets(), live.state.listAssets());
    assert.deepEqual([...replay.state.entries()], [...live.state.entries()]);
  });

  it('gives the scenario the expected end state', () => {
    const chain = Chain.genesis();
    const results = scenarioBlocks().map((b) => chain.block(b).results.map(outcome));
    assert.deepEqual(results, [
      ['Committed', 'Committed'],
      ['Committed', 'insufficient_funds', 'Committed'],
      ['Committed', 'Committed'],
    ]);
    assert.deepEqual(chain.state.asset(asset(ROSE, ALICE))?.value, { mantissa: 7450n, scale: 2 });
    assert.equal(chain.state.asset(asset(ROSE, BOB)), undefined, 'a zero balance deletes the asset');
    assert.deepEqual(chain.state.assetDefinition(ROSE)?.totalQuantity, { mantissa: 7450n, scale: 2 });
    assert.equal(chain.state.nft('deed$garden')?.ownedBy, ALICE);
    assert.equal(chain.state.parameters().blockTimeMs, 500);
  });
});
