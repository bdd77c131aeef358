import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Chain, scenarioBlocks } from '../../test/fixtures/state/state-fixture.js';
import { EMPTY_ROW_MAP, shareEmptyMaps } from './persist.js';
import { BaseTable, SORTED_CHILDREN_CACHE_MIN } from './table.js';
import { TABLES } from './tables.js';
import { WorldState } from './world-state.js';

function loadedScenario(): { live: WorldState; loaded: WorldState } {
  const chain = Chain.genesis();
  for (const b of scenarioBlocks()) chain.block(b);
  return { live: chain.state, loaded: WorldState.fromEntries(chain.state.entries()) };
}

describe('loading rows (a million accounts in memory)', () => {
  it('loaded rows with empty metadata share one empty map that cannot be changed', () => {
    const { loaded } = loadedScenario();
    const empty = loaded.sortedIds('account').map((id) => loaded.tables.account.get(id)!.metadata);
    const shared = empty.filter((m) => m.size === 0);
    assert.ok(shared.length >= 2, 'the scenario has accounts without metadata');
    for (const m of shared) assert.equal(m, EMPTY_ROW_MAP);
    assert.throws(() => (EMPTY_ROW_MAP as unknown as Map<string, unknown>).set('k', 1), TypeError);
    assert.throws(() => (EMPTY_ROW_MAP as unknown as Map<string, unknown>).delete('k'), TypeError);
    // Readers still get copies of their own, which they may change.
    const copy = loaded.account(loaded.sortedIds('account')[0]!)!;
    copy.metadata.set('note', 'mine');
    assert.equal(EMPTY_ROW_MAP.size, 0);
  });

  it('a loaded state has the same root, entries and index reads as the live one', () => {
    const { live, loaded } = loadedScenario();
    assert.deepEqual(loaded.stateRoot(), live.stateRoot());
    assert.deepEqual([...loaded.entries()], [...live.entries()]);
    for (const id of live.sortedIds('account'))
      assert.deepEqual(loaded.assetsOfAccount(id), live.assetsOfAccount(id));
  });

  it('shareEmptyMaps leaves rows without empty maps as they are', () => {
    const row = { id: 'x', metadata: new Map([['k', 1]]) };
    assert.equal(shareEmptyMaps(row), row);
    const bare = { id: 'y', metadata: new Map() };
    const shared = shareEmptyMaps(bare);
    assert.notEqual(shared, bare);
    assert.equal(shared.metadata, EMPTY_ROW_MAP);
    assert.equal(bare.metadata.size, 0);
  });
});

describe('index entries of one child and of many', () => {
  const asset = (definition: string, account: string) => ({
    id: `${definition}#${account}`,
    value: { mantissa: 1n, scale: 0 },
  });
  const acct = 'ed0120' + 'A'.repeat(64) + '@d';
  const ids = (t: BaseTable<unknown>, parent: string) =>
    [...(t.childIds('assetsByAccount', parent) ?? [])].sort();

  it('grow from one id to a set and shrink back to nothing', () => {
    const t = new BaseTable(TABLES.asset) as BaseTable<unknown>;
    const a = asset('x#d', acct);
    const b = asset('y#d', acct);
    t.put(a.id, a);
    assert.deepEqual(ids(t, acct), [a.id]);
    t.put(a.id, a); // the same id again: still one child
    assert.deepEqual(ids(t, acct), [a.id]);
    t.put(b.id, b);
    assert.deepEqual(ids(t, acct), [a.id, b.id]);
    assert.deepEqual(ids(t, `ed0120${'B'.repeat(64)}@d`), []);
    t.remove(a.id);
    assert.deepEqual(ids(t, acct), [b.id]);
    t.remove(b.id);
    assert.equal(t.childIds('assetsByAccount', acct), undefined);
    t.put(a.id, a);
    t.remove('z#d#' + acct); // not stored: nothing changes
    assert.deepEqual(ids(t, acct), [a.id]);
    assert.deepEqual([...(t.childIds('assetsByDefinition', 'x#d') ?? [])], [a.id]);
  });
});

describe('sorted children of large index entries', () => {
  it('are cached, and a new or removed child is seen at once', () => {
    const t = new BaseTable(TABLES.asset) as BaseTable<unknown>;
    const holder = (n: number) => `ed0120${n.toString(16).toUpperCase().padStart(64, '0')}@d`;
    const put = (n: number) => {
      const id = `x#d#${holder(n)}`;
      t.put(id, { id, value: { mantissa: 1n, scale: 0 } });
      return id;
    };
    const ids = Array.from({ length: SORTED_CHILDREN_CACHE_MIN + 10 }, (_, i) => put(2 * i + 1)).sort();
    const first = t.sortedChildIds('assetsByDefinition', 'x#d');
    assert.deepEqual(first, ids);
    assert.equal(t.sortedChildIds('assetsByDefinition', 'x#d'), first, 'kept until the entry changes');
    const added = put(0);
    assert.deepEqual(t.sortedChildIds('assetsByDefinition', 'x#d'), [added, ...ids].sort());
    t.remove(ids[5]!);
    assert.deepEqual(
      t.sortedChildIds('assetsByDefinition', 'x#d'),
      [added, ...ids].filter((id) => id !== ids[5]).sort(),
    );
    assert.deepEqual(first, ids, 'an array handed out is never changed');
  });
});
