import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ADMIN,
  ALICE,
  amount,
  asset,
  BOB,
  CAROL,
  Chain,
  perm,
  ROSE,
  tx,
  world,
} from '../../test/fixtures/state/state-fixture.js';
import type { Block, TransactionResult } from '../model/block.js';
import type { QueryParams, QueryRequest, QueryResponse } from '../model/queries.js';
import { type SignedTransaction, transactionHash } from '../model/transaction.js';
import { toHex } from '../util/hex.js';
import type { BlockSource, TxLocation } from './block-source.js';
import { CursorStore } from './cursors.js';
import type { QueryError } from './errors.js';
import { executeQuery, type QueryOptions } from './query.js';

/** An in-memory BlockSource fed with the blocks a test chain commits. */
class FakeBlocks implements BlockSource {
  readonly blocks: Block[] = [];
  private readonly byHash = new Map<string, TxLocation>();
  private readonly byAccount = new Map<string, TxLocation[]>();

  add(txs: SignedTransaction[], results: TransactionResult[]): void {
    const height = this.blocks.length + 1;
    const zero = new Uint8Array(32);
    const header = {
      height,
      prevHash: zero,
      transactionsRoot: zero,
      resultsRoot: zero,
      stateRoot: zero,
      creationTimeMs: height,
      view: 0,
      transactionCount: txs.length,
    };
    const certificate = {
      phase: { kind: 'Commit' as const },
      height,
      view: 0,
      epoch: 0,
      blockHash: zero,
      validatorSetHash: zero,
      signers: new Uint8Array(1),
      signature: new Uint8Array(96),
    };
    this.blocks.push({ header, transactions: txs, results, certificate });
    txs.forEach((t, index) => {
      const at = { blockHeight: height, index };
      this.byHash.set(toHex(transactionHash(t)), at);
      const list = this.byAccount.get(t.payload.authority) ?? [];
      list.push(at);
      this.byAccount.set(t.payload.authority, list);
    });
  }
  height = () => this.blocks.length;
  /** Blocks read so far: a query must read only the blocks of the transactions it returns. */
  reads = 0;
  block = (h: number) => {
    this.reads++;
    return this.blocks[h - 1];
  };
  transaction = (hashHex: string) => this.byHash.get(hashHex);
  transactionsOfAccount = (account: string) => this.byAccount.get(account) ?? [];
  transactionsUpTo = (h: number) => this.blocks.slice(0, h).reduce((n, b) => n + b.transactions.length, 0);
}

function fixture() {
  const chain = world();
  const blocks = new FakeBlocks();
  const t1 = tx(ADMIN, [
    { kind: 'MintAsset', asset: asset(ROSE, ALICE), amount: amount('5') },
    { kind: 'MintAsset', asset: asset(ROSE, BOB), amount: amount('12.5') },
    { kind: 'RegisterNft', id: 'deed$garden', content: new Map() },
    { kind: 'RegisterRole', id: 'ops', permissions: [perm('CanManagePeers')] },
    { kind: 'GrantRole', account: BOB, role: 'ops' },
    { kind: 'GrantPermission', account: BOB, permission: perm('CanSetParameters') },
    { kind: 'SetKeyValue', target: { kind: 'Account', id: BOB }, key: 'tier', value: 'gold' },
  ]);
  const t2 = tx(BOB, [{ kind: 'Log', level: { kind: 'Info' }, message: 'x' }]);
  const out = chain.block([t1, t2]);
  blocks.add([t1, t2], out.results);
  let t = 0;
  const clock = { now: () => t, advance: (ms: number) => (t += ms) };
  const opts: QueryOptions = {
    cursors: new CursorStore({ capacity: 4, idleExpiryMs: 60_000, now: clock.now }),
    blocks,
  };
  const q = (request: QueryRequest, authority = ADMIN, o = opts) =>
    executeQuery(chain.state, request, authority, o);
  return { chain, blocks, opts, q, clock, t1 };
}

const params = (p: Partial<QueryParams> = {}): QueryParams => ({ offset: 0, ...p });
const start = (query: object, p: Partial<QueryParams> = {}) =>
  ({ kind: 'Start', query, params: params(p) }) as QueryRequest;
const single = (query: object) => ({ kind: 'Singular', query }) as QueryRequest;

function batch(r: QueryResponse | QueryError): Extract<QueryResponse, { kind: 'Iterable' }> {
  assert.ok(
    'kind' in r && r.kind === 'Iterable',
    JSON.stringify(r, (_k, v) => (typeof v === 'bigint' ? String(v) : v)),
  );
  return r;
}
const ids = (r: QueryResponse | QueryError) =>
  batch(r).batch.map((o) => ('id' in o.value ? o.value.id : o.kind));
const code = (r: QueryResponse | QueryError) => (r as QueryError).code;

describe('executeQuery: singular', () => {
  it('finds every kind of object, or not_found', async () => {
    const { q, t1 } = fixture();
    const found: [object, string][] = [
      [{ kind: 'FindDomainById', id: 'garden' }, 'Domain'],
      [{ kind: 'FindAccountById', id: BOB }, 'Account'],
      [{ kind: 'FindAssetDefinitionById', id: ROSE }, 'AssetDefinition'],
      [{ kind: 'FindAssetById', id: asset(ROSE, BOB) }, 'Asset'],
      [{ kind: 'FindNftById', id: 'deed$garden' }, 'Nft'],
      [{ kind: 'FindRoleById', id: 'ops' }, 'Role'],
      [{ kind: 'FindParameters' }, 'Parameters'],
      [{ kind: 'FindTransactionByHash', hash: toHex(transactionHash(t1)) }, 'Transaction'],
      [{ kind: 'FindBlockByHeight', height: 1 }, 'Block'],
    ];
    for (const [query, kind] of found) {
      const r = await q(single(query));
      assert.ok(
        'kind' in r && r.kind === 'Singular' && r.output.kind === kind,
        `${JSON.stringify(query)} → ${code(r)}`,
      );
    }
    for (const [query] of found.filter(([, k]) => k !== 'Parameters')) {
      const missing = { ...query, id: 'nope', hash: '00'.repeat(32), height: 99 };
      assert.equal(code(await q(single(missing))), 'not_found');
    }
    assert.equal(code(await q(single({ kind: 'FindUpgradeById', id: '00'.repeat(32) }))), 'not_found');
  });

  it('returns copies of the state', async () => {
    const { q, chain } = fixture();
    const r = await q(single({ kind: 'FindAccountById', id: BOB }));
    assert.ok('kind' in r && r.kind === 'Singular' && r.output.kind === 'Account');
    r.output.value.metadata.set('tier', 'hacked');
    assert.equal(chain.state.account(BOB)!.metadata.get('tier'), 'gold');
  });

  it('places a committed transaction by hash', async () => {
    const { q, t1 } = fixture();
    const r = await q(single({ kind: 'FindTransactionByHash', hash: toHex(transactionHash(t1)) }));
    assert.ok('kind' in r && r.kind === 'Singular' && r.output.kind === 'Transaction');
    assert.deepEqual(
      [r.output.value.blockHeight, r.output.value.index, r.output.value.result],
      [1, 0, { kind: 'Committed' }],
    );
  });
});

describe('executeQuery: iterable', () => {
  it('lists every kind', async () => {
    const { q } = fixture();
    assert.deepEqual(ids(await q(start({ kind: 'FindDomains' }))), ['garden', 'wonderland']);
    assert.deepEqual(ids(await q(start({ kind: 'FindAccounts' }))), [ADMIN, ALICE, BOB, CAROL].sort());
    assert.deepEqual(ids(await q(start({ kind: 'FindAccountsInDomain', domain: 'garden' }))), []);
    assert.deepEqual(ids(await q(start({ kind: 'FindAssetDefinitions' }))), [ROSE]);
    assert.deepEqual(
      ids(await q(start({ kind: 'FindAssets' }))),
      [asset(ROSE, ALICE), asset(ROSE, BOB)].sort(),
    );
    assert.deepEqual(ids(await q(start({ kind: 'FindAssetsByAccount', account: BOB }))), [asset(ROSE, BOB)]);
    assert.deepEqual(ids(await q(start({ kind: 'FindHoldersOfDefinition', definition: ROSE }))).length, 2);
    assert.deepEqual(ids(await q(start({ kind: 'FindNfts' }))), ['deed$garden']);
    assert.deepEqual(ids(await q(start({ kind: 'FindRoles' }))), ['ops']);
    assert.deepEqual(ids(await q(start({ kind: 'FindRolesByAccount', account: BOB }))), ['ops']);
    assert.deepEqual(batch(await q(start({ kind: 'FindPermissionsByAccount', account: BOB }))).batch, [
      { kind: 'Permission', value: perm('CanSetParameters') },
    ]);
    assert.deepEqual(ids(await q(start({ kind: 'FindPeers' }))), []);
    assert.deepEqual(ids(await q(start({ kind: 'FindTransactions' }))), ['Transaction', 'Transaction']);
    assert.deepEqual(
      batch(await q(start({ kind: 'FindTransactionsByAccount', account: BOB }))).batch.length,
      1,
    );
    assert.deepEqual(ids(await q(start({ kind: 'FindBlocks' }))), ['Block']);
    assert.deepEqual(ids(await q(start({ kind: 'FindUpgrades' }))), []);
  });

  it('answers not_found for a missing parent', async () => {
    const { q } = fixture();
    assert.equal(code(await q(start({ kind: 'FindAccountsInDomain', domain: 'nope' }))), 'not_found');
    assert.equal(code(await q(start({ kind: 'FindAssetsByAccount', account: `${BOB}x` }))), 'not_found');
    assert.equal(code(await q(start({ kind: 'FindHoldersOfDefinition', definition: 'x#y' }))), 'not_found');
    assert.equal(code(await q(start({ kind: 'FindRolesByAccount', account: 'x' }))), 'not_found');
    assert.equal(code(await q(start({ kind: 'FindPermissionsByAccount', account: 'x' }))), 'not_found');
  });

  it('filters and sorts over the JSON form (snake_case, metadata, decimals)', async () => {
    const { q } = fixture();
    const assets = async (p: Partial<QueryParams>) => ids(await q(start({ kind: 'FindAssets' }, p)));
    assert.deepEqual(await assets({ filter: { gt: ['value', '10'] } }), [asset(ROSE, BOB)]);
    assert.deepEqual(await assets({ sort: 'value:desc' }), [asset(ROSE, BOB), asset(ROSE, ALICE)]);
    assert.deepEqual(
      ids(await q(start({ kind: 'FindAccounts' }, { filter: { eq: ['metadata.tier', 'gold'] } }))),
      [BOB],
    );
    const defs = await q(
      start({ kind: 'FindAssetDefinitions' }, { filter: { eq: ['total_quantity', '17.5'] } }),
    );
    assert.deepEqual(ids(defs), [ROSE]);
    assert.equal(code(await q(start({ kind: 'FindAssets' }, { filter: { bogus: [] } }))), 'invalid_filter');
    assert.equal(code(await q(start({ kind: 'FindAssets' }, { sort: 'value:sideways' }))), 'invalid_sort');
  });

  it('paginates with offset and limit and validates them', async () => {
    const { q } = fixture();
    const all = ids(await q(start({ kind: 'FindAccounts' })));
    assert.deepEqual(ids(await q(start({ kind: 'FindAccounts' }, { offset: 1, limit: 2 }))), all.slice(1, 3));
    assert.deepEqual(ids(await q(start({ kind: 'FindAccounts' }, { offset: 10 }))), []);
    assert.equal(code(await q(start({ kind: 'FindAccounts' }, { limit: 0 }))), 'invalid_pagination');
    assert.equal(code(await q(start({ kind: 'FindAccounts' }, { fetchSize: 0 }))), 'invalid_pagination');
    assert.equal(code(await q(start({ kind: 'FindAccounts' }, { fetchSize: 10_001 }))), 'invalid_pagination');
  });

  it('iterates 2,500 items in batches of 100 through a cursor', async () => {
    const chain = Chain.genesis();
    const roles = Array.from({ length: 2500 }, (_, i) => `role${String(i).padStart(4, '0')}`);
    // In transactions of 250: one of 2,500 would pass the default TransactionMaxWeight.
    for (let i = 0; i < roles.length; i += 250) {
      chain.run(
        ADMIN,
        roles.slice(i, i + 250).map((id) => ({ kind: 'RegisterRole', id, permissions: [] })),
      );
    }
    const opts = { cursors: new CursorStore({ capacity: 2, idleExpiryMs: 1000, now: () => 0 }) };
    let r = batch(
      await executeQuery(chain.state, start({ kind: 'FindRoles' }, { fetchSize: 100 }), ADMIN, opts),
    );
    const seen: string[] = [];
    let rounds = 0;
    for (;;) {
      rounds++;
      seen.push(...ids(r));
      assert.equal(r.remainingItems, 2500 - seen.length);
      if (r.cursor === undefined) break;
      r = batch(await executeQuery(chain.state, { kind: 'Continue', cursor: r.cursor }, ADMIN, opts));
    }
    assert.equal(rounds, 25);
    assert.deepEqual(seen, roles);
    assert.equal(opts.cursors.size, 0);
  });

  it('answers invalid_sort for a field the items do not have, as the list routes do', async () => {
    const { q } = fixture();
    const r = await q(start({ kind: 'FindAccounts' }, { sort: 'owner:asc' }));
    assert.equal(code(r), 'invalid_sort');
    assert.deepEqual((r as QueryError).details.fields, ['id', 'metadata']);
    assert.equal(code(await q(start({ kind: 'FindTransactions' }, { sort: 'nope' }))), 'invalid_sort');
    batch(await q(start({ kind: 'FindAccounts' }, { sort: 'metadata.tier:desc' })));
    batch(await q(start({ kind: 'FindTransactions' }, { sort: 'block_height:desc' })));
  });

  it('stops a filtered or sorted scan with query_budget_exceeded once its work budget is spent', async () => {
    const { q, opts } = fixture();
    const small = { ...opts, workUnitsMax: 40 }; // 4 accounts cost 64 units to scan
    const over = await q(start({ kind: 'FindAccounts' }, { filter: { exists: 'id' } }), ADMIN, small);
    assert.equal(code(over), 'query_budget_exceeded');
    assert.equal((over as QueryError).details.limit, 40);
    assert.equal(
      code(await q(start({ kind: 'FindAccounts' }, { sort: 'id' }), ADMIN, small)),
      'query_budget_exceeded',
    );
    // Unfiltered and unsorted, only the page is touched: no budget applies.
    assert.equal(batch(await q(start({ kind: 'FindAccounts' }), ADMIN, small)).batch.length, 4);
  });

  it('refuses a filter whose values are larger than filterValueCharsMax in all', async () => {
    const { q, opts } = fixture();
    const values = Array.from({ length: 20 }, (_, i) => `v${i}`.padEnd(40, 'x'));
    const o = { ...opts, filterValueCharsMax: 400 };
    const r = await q(start({ kind: 'FindAccounts' }, { filter: { in: ['id', values] } }), ADMIN, o);
    assert.equal(code(r), 'invalid_filter');
    assert.equal((r as QueryError).details.limit, 400);
    batch(await q(start({ kind: 'FindAccounts' }, { filter: { in: ['id', values.slice(0, 5)] } }), ADMIN, o));
  });

  it('pages the chain by position: FindTransactions reads only the blocks of the batch it returns', async () => {
    const { q, blocks, chain } = fixture();
    for (let i = 0; i < 20; i++) {
      const t = tx(BOB, [{ kind: 'Log', level: { kind: 'Info' }, message: `m${i}` }]);
      blocks.add([t], chain.block([t]).results);
    }
    blocks.reads = 0;
    const first = batch(await q(start({ kind: 'FindTransactions' }, { fetchSize: 1, offset: 3 })));
    assert.equal(first.remainingItems, 22 - 4);
    assert.equal(first.batch.length, 1);
    assert.ok(blocks.reads <= 2, `Start read ${blocks.reads} blocks`);
    blocks.reads = 0;
    const next = batch(await q({ kind: 'Continue', cursor: first.cursor! }));
    assert.ok(blocks.reads <= 2, `Continue read ${blocks.reads} blocks`);
    const at = (r: typeof first) => r.batch.map((o) => (o.value as { blockHeight: number }).blockHeight);
    // Block 1 holds two transactions, so the fourth of the chain (offset 3) is the only one of block 3.
    assert.deepEqual([...at(first), ...at(next)], [3, 4]);
  });

  it('reports cursor expiry, foreign cursors, capacity and the read hook', async () => {
    const { q, clock, opts } = fixture();
    const first = batch(await q(start({ kind: 'FindAccounts' }, { fetchSize: 1 })));
    assert.equal(first.remainingItems, 3);
    const cursor = first.cursor!;
    assert.equal(code(await q({ kind: 'Continue', cursor }, BOB)), 'cursor_not_found');
    assert.equal(code(await q({ kind: 'Continue', cursor: 'f'.repeat(32) })), 'cursor_not_found');
    clock.advance(60_001);
    assert.equal(code(await q({ kind: 'Continue', cursor })), 'cursor_expired');
    for (let i = 0; i < 4; i++) batch(await q(start({ kind: 'FindAccounts' }, { fetchSize: 1 })));
    assert.equal(code(await q(start({ kind: 'FindAccounts' }, { fetchSize: 1 }))), 'cursors_exhausted');
    const denied = await q(start({ kind: 'FindAccounts' }), BOB, { ...opts, canRead: (who) => who !== BOB });
    assert.equal(code(denied), 'permission_denied');
  });

  it('serves a snapshot: later commits do not change an open cursor', async () => {
    const { q, chain } = fixture();
    const first = batch(await q(start({ kind: 'FindAccounts' }, { fetchSize: 2 })));
    chain.run(ADMIN, [{ kind: 'UnregisterAccount', id: CAROL }]);
    const rest = batch(await q({ kind: 'Continue', cursor: first.cursor! }));
    assert.deepEqual([...ids(first), ...ids(rest)], [ADMIN, ALICE, BOB, CAROL].sort());
  });
});
