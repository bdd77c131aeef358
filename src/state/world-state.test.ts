import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ADMIN,
  ALICE,
  acc,
  BOB,
  CAROL,
  Chain,
  ROSE,
  scenarioBlocks,
  tx,
} from '../../test/fixtures/state/state-fixture.js';
import { seq } from '../codec/compound.js';
import { encode } from '../codec/frame.js';
import { DomainCodec } from '../model/entities.js';
import { RoleId } from '../model/ids.js';
import { defaultParameters } from '../model/parameters.js';
import { compareBytes, toHex } from '../util/hex.js';
import { isStateError } from './errors.js';
import { stateKey, TABLE_TAGS } from './keys.js';
import { EMPTY_SUBTREE, stateRootOf } from './merkle/hash.js';
import { publishRoot } from './root.js';
import { WorldState } from './world-state.js';

function scenarioState(): WorldState {
  const chain = Chain.genesis();
  for (const b of scenarioBlocks()) chain.block(b);
  return chain.state;
}

function shuffled<T>(xs: readonly T[], seed: number): T[] {
  const out = [...xs];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe('WorldState', () => {
  it('starts empty with the root of the empty state tree (and a zero accumulator) and default parameters', () => {
    const s = new WorldState();
    assert.deepEqual(s.stateRoot(), stateRootOf(EMPTY_SUBTREE));
    assert.deepEqual(s.legacyStateRoot(), publishRoot(0n));
    assert.deepEqual([...s.entries()], []);
    assert.deepEqual(s.parameters(), defaultParameters());
    assert.equal(s.abiVersion(), 1);
    assert.equal(s.genesisDomain(), undefined);
    assert.equal(s.domainCount(), 0);
  });

  it('round-trips through entries(): same root, same reads, same entries', () => {
    const live = scenarioState();
    const loaded = WorldState.fromEntries(live.entries());
    assert.deepEqual(loaded.stateRoot(), live.stateRoot());
    assert.deepEqual([...loaded.entries()], [...live.entries()]);
    assert.deepEqual(loaded.listAccounts(), live.listAccounts());
    assert.deepEqual(loaded.listAssets(), live.listAssets());
    assert.deepEqual(loaded.assetsOfAccount(ALICE), live.assetsOfAccount(ALICE));
    assert.deepEqual(loaded.holdersOfRole('minter'), [BOB]);
    assert.deepEqual(loaded.rolesOfAccount(BOB), ['minter']);
    assert.deepEqual(loaded.parameters(), live.parameters());
    assert.equal(loaded.genesisDomain(), 'wonderland');
    assert.equal(loaded.accountCount(), 3);
    assert.equal(loaded.domainCount(), 2);
  });

  it('gives the same root whatever order entries are loaded in', () => {
    const entries = [...scenarioState().entries()];
    const root = WorldState.fromEntries(entries).stateRoot();
    for (const seed of [1, 2, 3])
      assert.deepEqual(WorldState.fromEntries(shuffled(entries, seed)).stateRoot(), root);
  });

  it('gives the same root whatever order the same objects were created in', () => {
    const ids = [ALICE, BOB, CAROL, acc(5), acc(6)];
    const roots = [0, 1, 2].map((seed) => {
      const chain = Chain.genesis();
      for (const id of shuffled(ids, seed))
        chain.run(ADMIN, [{ kind: 'RegisterAccount', id, metadata: new Map() }]);
      return toHex(chain.state.stateRoot());
    });
    assert.equal(new Set(roots).size, 1);
  });

  it('hands out copies: mutating a returned value does not change the state', () => {
    const s = scenarioState();
    const root = s.stateRoot();
    const a = s.account(BOB)!;
    a.metadata.set('tier', 'hacked');
    const d = s.assetDefinition(ROSE)!;
    (d.totalQuantity as { mantissa: bigint }).mantissa = 1n;
    s.listDomains()[0]!.metadata.set('x', 1);
    s.permissionsOfAccount(ADMIN).pop();
    assert.deepEqual(s.account(BOB)!.metadata.get('tier'), { level: 2 });
    assert.equal(s.assetDefinition(ROSE)!.totalQuantity.mantissa, 7450n);
    assert.equal(s.permissionsOfAccount(ADMIN).length, 1);
    assert.deepEqual(s.stateRoot(), root);
  });

  it('uses the documented key scheme: table tag byte then the id as UTF-8', () => {
    const s = Chain.genesis().state;
    const keys = [...s.entries()].map((e) => toHex(e.key));
    assert.ok(keys.includes(toHex(stateKey(TABLE_TAGS.domain, 'wonderland'))));
    assert.ok(keys.includes(toHex(stateKey(TABLE_TAGS.account, ADMIN))));
    assert.ok(keys.includes(toHex(stateKey(TABLE_TAGS.accountPermissions, ADMIN))));
    assert.ok(keys.includes(toHex(stateKey(TABLE_TAGS.meta, ''))));
    assert.equal(keys.length, 4);
  });

  it('yields entries in UTF-8 key byte order, not UTF-16 id order', () => {
    const chain = Chain.genesis();
    chain.run(ADMIN, [
      { kind: 'RegisterDomain', id: '\u{1F600}', metadata: new Map() },
      { kind: 'RegisterDomain', id: '\uFFFD', metadata: new Map() },
    ]);
    const keys = [...chain.state.entries()].map((e) => e.key);
    for (let i = 1; i < keys.length; i++) assert.ok(compareBytes(keys[i - 1]!, keys[i]!) < 0);
    assert.equal(keys.length, 6);
  });

  it('refuses bad persisted entries with a typed error', () => {
    const good = [...Chain.genesis().state.entries()];
    const domainValue = encode(DomainCodec, { id: 'other', ownedBy: ADMIN, metadata: new Map() });
    const unsortedRoles = encode(seq(RoleId), ['b', 'a']);
    const cases: [{ key: Uint8Array; value: Uint8Array }[], RegExp][] = [
      [[{ key: new Uint8Array([0x7f, 0x61]), value: new Uint8Array([0]) }], /unknown table tag/],
      [[{ key: new Uint8Array(0), value: new Uint8Array(0) }], /malformed key/],
      [[{ key: stateKey(TABLE_TAGS.domain, 'wonderland'), value: domainValue }], /differs from key/],
      [[{ key: stateKey(TABLE_TAGS.domain, 'other'), value: new Uint8Array([1, 2, 3]) }], /undecodable/],
      [[good[0]!, good[0]!], /duplicate key/],
      [[{ key: stateKey(TABLE_TAGS.accountRoles, ADMIN), value: new Uint8Array([0]) }], /empty list/],
      [[{ key: stateKey(TABLE_TAGS.accountRoles, ADMIN), value: unsortedRoles }], /not strictly sorted/],
      [[{ key: stateKey(TABLE_TAGS.accountRoles, 'nobody'), value: unsortedRoles }], /canonical account id/],
    ];
    for (const [entries, why] of cases) {
      assert.throws(
        () => WorldState.fromEntries(entries),
        (e) => isStateError(e) && e.code === 'state_invalid_entry' && why.test(e.message),
      );
    }
  });

  it('lists are sorted by id and indexes follow commits', () => {
    const chain = Chain.genesis();
    chain.run(ADMIN, [
      { kind: 'RegisterAccount', id: CAROL, metadata: new Map() },
      { kind: 'RegisterAccount', id: ALICE, metadata: new Map() },
    ]);
    assert.deepEqual(
      chain.state.accountsInDomain('wonderland').map((a) => a.id),
      [ADMIN, ALICE, CAROL],
    );
    chain.run(ADMIN, [{ kind: 'UnregisterAccount', id: ALICE }]);
    assert.deepEqual(
      chain.state.listAccounts().map((a) => a.id),
      [ADMIN, CAROL],
    );
    assert.deepEqual(chain.state.accountsInDomain('nowhere'), []);
  });

  it('builds a state from a single transaction list run as genesis', () => {
    const chain = new Chain();
    const out = chain.block([tx(ADMIN, [{ kind: 'RegisterDomain', id: 'wonderland', metadata: new Map() }])]);
    assert.equal(out.results[0]!.kind, 'Committed');
    assert.equal(chain.state.domain('wonderland')?.ownedBy, ADMIN);
  });
});
