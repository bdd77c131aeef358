// The state's shortcuts on the commit path (README.md "Execution cost") keep every answer the general
// code gives: kept row encodings never go stale, index upkeep skipped for id-derived links keeps the
// indexes right, the hand-written deep copy copies like structuredClone, and `limit()` reads parameters.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ADMIN,
  ALICE,
  asset,
  BOB,
  CAROL,
  type Chain,
  expectCode,
  outcome,
  ROSE,
  recomputeRoot,
  tx,
  world,
} from '../../test/fixtures/state/state-fixture.js';
import type { Instruction } from '../model/instructions.js';
import { numeric } from '../model/numeric.js';
import { deepCopy } from './copy.js';
import { BlockExecution } from './executor.js';
import { WorldState } from './world-state.js';

const transfer = (from: string, to: string, amount: string): Instruction => ({
  kind: 'TransferAsset',
  source: asset(ROSE, from),
  destination: to,
  amount: numeric(amount),
});

function funded(): Chain {
  const chain = world();
  expectCode(
    chain,
    ADMIN,
    [{ kind: 'MintAsset', asset: asset(ROSE, ALICE), amount: numeric('100') }],
    'Committed',
  );
  return chain;
}

/** The committed root must equal one recomputed from scratch, and a reload must agree. */
function assertRootsAgree(chain: Chain, root: Uint8Array): void {
  assert.deepEqual(root, recomputeRoot(chain.state.entries()));
  assert.deepEqual(WorldState.fromEntries(chain.state.entries()).stateRoot(), root);
}

describe('commit path: kept row encodings', () => {
  it('the same rows changed block after block give the root of a full recomputation', () => {
    const chain = funded();
    const people = [ALICE, BOB, CAROL];
    expectCode(chain, ALICE, [transfer(ALICE, BOB, '30'), transfer(ALICE, CAROL, '30')], 'Committed');
    for (let b = 0; b < 12; b++) {
      const txs = [0, 1, 2].map((i) => {
        const from = people[(b + i) % 3]!;
        return tx(from, [transfer(from, people[(b + i + 1) % 3]!, '0.25')], b * 3 + i);
      });
      const out = chain.block(txs);
      assert.deepEqual(out.results.map(outcome), ['Committed', 'Committed', 'Committed']);
      assertRootsAgree(chain, out.root);
    }
  });

  it('bytes handed out by changes() can be scribbled on without touching later roots', () => {
    const chain = funded();
    for (let b = 0; b < 4; b++) {
      const out = chain.block([tx(ALICE, [transfer(ALICE, BOB, '1')], b)]);
      for (const c of out.changes) {
        c.key.fill(0xff);
        c.value?.fill(0xff);
      }
      assertRootsAgree(chain, out.root);
    }
  });

  it("hands the state tree's writes to the store as the tree made them, not copied per call", () => {
    const chain = funded();
    const exec = new BlockExecution(chain.state, {
      height: chain.height + 1,
      blockTimeMs: 1_000 * (chain.height + 1),
      chainId: 'test-chain',
      genesis: false,
    });
    assert.equal(
      outcome(exec.apply(tx(ALICE, [transfer(ALICE, BOB, '1')], 7), new Uint8Array(32)).result),
      'Committed',
    );
    const a = exec.treeWrites();
    const b = exec.treeWrites();
    assert.ok(a.length > 0 && a.length === b.length);
    for (let i = 0; i < a.length; i++) {
      assert.equal(a[i]!.key, b[i]!.key);
      assert.equal(a[i]!.value, b[i]!.value);
    }
    exec.commit();
  });

  it('a row written back to its committed bytes within a block is not a change', () => {
    const chain = funded();
    chain.block([tx(ALICE, [transfer(ALICE, BOB, '5')])]); // rows now come from the kept encodings
    const out = chain.block([
      tx(ALICE, [transfer(ALICE, BOB, '1')], 1),
      tx(BOB, [transfer(BOB, ALICE, '1')], 2),
    ]);
    assert.deepEqual(out.results.map(outcome), ['Committed', 'Committed']);
    assert.deepEqual(out.changes, []);
    assertRootsAgree(chain, out.root);
  });
});

describe('commit path: indexes with id-derived links', () => {
  it('asset rows deleted at zero and created again stay indexed by account and definition', () => {
    const chain = funded();
    chain.block([tx(ALICE, [transfer(ALICE, BOB, '100')])]); // ALICE's row goes (zero balance)
    assert.deepEqual(chain.state.assetsOfAccount(ALICE), []);
    assert.deepEqual(
      chain.state.holdersOfDefinition(ROSE).map((a) => a.id),
      [asset(ROSE, BOB)],
    );
    // In one block: back to ALICE (a new row), then an update of the same new row.
    chain.block([tx(BOB, [transfer(BOB, ALICE, '30'), transfer(BOB, ALICE, '20')])]);
    assert.deepEqual(
      chain.state.assetsOfAccount(ALICE).map((a) => a.value.mantissa),
      [5000n],
    );
    assert.deepEqual(
      chain.state
        .holdersOfDefinition(ROSE)
        .map((a) => a.id)
        .sort(),
      [asset(ROSE, ALICE), asset(ROSE, BOB)].sort(),
    );
  });

  it('a row created earlier in the same block is found through the index (unregistering its owner)', () => {
    const chain = funded();
    // Unregistering CAROL removes her assets: the overlay must find the row the block just created.
    const out = chain.block([
      tx(ALICE, [transfer(ALICE, CAROL, '40')], 1),
      tx(ADMIN, [{ kind: 'UnregisterAccount', id: CAROL }], 2),
    ]);
    assert.deepEqual(out.results.map(outcome), ['Committed', 'Committed']);
    assert.deepEqual(
      chain.state.holdersOfDefinition(ROSE).map((a) => a.id),
      [asset(ROSE, ALICE)],
    );
    assert.equal(chain.state.assetDefinition(ROSE)?.totalQuantity.mantissa, 6000n);
    assertRootsAgree(chain, out.root);
  });
});

describe('deepCopy', () => {
  const samples: unknown[] = [
    { kind: 'AssetAdded', id: 'rose#wonderland#x', amount: { mantissa: 12n, scale: 2 } },
    {
      id: 'a',
      metadata: new Map<string, unknown>([
        ['k', { nested: [1, 'two', null, true, { deep: [[]] }] }],
        ['__proto__', 1],
      ]),
    },
    [new Uint8Array([1, 2, 3]).subarray(1), [0n, -1n], 'text', undefined],
    JSON.parse('{"__proto__": {"polluted": true}, "a": [1, {"b": null}]}'),
  ];

  it('gives what structuredClone gives', () => {
    for (const v of samples) assert.deepStrictEqual(deepCopy(v), structuredClone(v));
  });

  it('shares no object with the original', () => {
    const original = samples[1] as { metadata: Map<string, { nested: unknown[] }> };
    const copy = deepCopy(original);
    (copy.metadata.get('k')!.nested[4] as { deep: unknown[] }).deep.push('x');
    copy.metadata.set('new', { nested: [] });
    assert.deepStrictEqual(original, structuredClone(samples[1]));
    assert.equal(original.metadata.has('new'), false);
    const bytes = samples[2] as [Uint8Array];
    const copied = deepCopy(bytes);
    copied[0]![0] = 99;
    assert.equal(bytes[0]![0], 2);
  });

  it('keeps a "__proto__" key as data, not as the prototype', () => {
    const copy = deepCopy(samples[3]) as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(copy), Object.prototype);
    assert.ok(Object.hasOwn(copy, '__proto__'));
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });
});

describe('WorldState.limit', () => {
  it('reads numeric parameters without a copy, defaults first, then the committed value', () => {
    const chain = world();
    assert.equal(chain.state.limit('blockMaxTransactions'), 512);
    expectCode(
      chain,
      ADMIN,
      [{ kind: 'SetParameter', parameter: { kind: 'BlockMaxTransactions', value: 7 } }],
      'Committed',
    );
    assert.equal(chain.state.limit('blockMaxTransactions'), 7);
    assert.equal(chain.state.parameters().blockMaxTransactions, 7);
    assert.equal(new WorldState().limit('maxClockDriftMs'), 1000);
  });
});
