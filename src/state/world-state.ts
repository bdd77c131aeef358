// The committed world state (README.md): typed tables of immutable rows, their indexes, and the
// incrementally maintained state commitments: the state tree (merkle/tree.ts, the root of header version 2)
// and the multiset accumulator (root.ts, the root of header version 1, kept to check old blocks). Readers (gateway, queries) see only committed data; the executor
// writes through a BlockExecution overlay and merges it here with commit().

import type {
  Account,
  Asset,
  AssetDefinition,
  Domain,
  Nft,
  Peer,
  Role,
  UpgradeRecord,
} from '../model/entities.js';
import type { IdName, NamedIdKind } from '../model/id-names.js';
import type { ListedRows } from '../model/listed-rows.js';
import { defaultParameters, type Parameters } from '../model/parameters.js';
import type { Permission } from '../model/permissions.js';
import { type NullifierKind, nullifierId, POOL_TREE_ID, poolLeafId } from '../model/shielded.js';
import { assert } from '../util/assert.js';
import { compareBytes } from '../util/hex.js';
import { deepCopy } from './copy.js';
import { DiskTableStore, RowCache, type StoreReader } from './disk-table-store.js';
import { SINGLETON_ID, type TableName } from './keys.js';
import { stateRootVersion } from './merkle/hash.js';
import { memoryTree, type StateTree, type TreeUpdate } from './merkle/tree.js';
import { installedIdNamings } from './module-host.js';
import type { OrderedStep, OrderedWalk } from './ordered-index.js';
import { loadEntries, type StateEntry } from './persist.js';
import { publishRoot } from './root.js';
import { allStoreWrites, type StoreWrite, StoreWriteLog } from './store-writes.js';
import { BaseTable } from './table.js';
import type { TableStore } from './table-store.js';
import { INITIAL_META, type IndexName, type RowOf, TABLES, type TableDef, tableNames } from './tables.js';

export type { StateEntry } from './persist.js';
/** The chain parameters that are plain numbers (everything but the custom map). */
export type NumericParameter = Exclude<keyof Parameters, 'custom'>;
const DEFAULT_LIMITS: Readonly<Parameters> = Object.freeze(defaultParameters());

export type { ListedRows };

export type StateTables = { readonly [N in TableName]: BaseTable<RowOf<N>> };

/** A deep copy, so no caller can reach a row the state still holds. */
const copy = deepCopy;

function makeTables(store?: (def: TableDef<unknown>) => TableStore<unknown>): StateTables {
  const t: Partial<Record<TableName, BaseTable<unknown>>> = {};
  for (const name of tableNames()) {
    const def = TABLES[name] as TableDef<unknown>;
    t[name] = store === undefined ? new BaseTable(def) : new BaseTable(def, store(def));
  }
  return t as StateTables;
}

/** How a state kept in the state store is opened (`WorldState.onDisk`). */
export interface DiskStateOptions {
  /** The version (applied height) the store's rows are of. */
  version: number;
  /** The stored multiset root accumulator and row count of a table (by tag) at that version. */
  sum: bigint;
  count: (tag: number) => number;
  /** Decoded rows kept in the heap (config storage.state_row_cache_rows). */
  cacheRows: number;
  /** The stored state tree of that version, or an empty one over the store to build it on from `rows`. */
  tree?: StateTree;
  emptyTree?: StateTree;
  /** Every row, sorted by key (read only to build the tree). */
  rows?: () => Iterable<StateEntry>;
}

export class WorldState {
  readonly tables: StateTables;
  /** The disk tables' shared reads and writes (undefined: every table is in the heap). */
  private disk: { ctx: { reader: StoreReader; cache: RowCache; writingVersion: number } } | undefined;
  /** Collects the index entries, counts and accumulator for the state store (`recordStoreWrites`). */
  private writeLog: StoreWriteLog | undefined;
  /** The root accumulator (sum of leaves mod 2^256, see root.ts). */
  private sum = 0n;
  /**
   * Bumped by every commit, so a block execution prepared against an older state cannot be merged. It is
   * also the state tree's version: a ledger's state is loaded at its applied height and stays equal to it.
   */
  private versionNumber = 0;
  /** The state tree (docs/design/state.md); in memory unless the state was loaded with a stored one. */
  private stateTree: StateTree = memoryTree();

  constructor(tables?: StateTables) {
    this.tables = tables ?? makeTables();
  }

  /**
   * A state whose rows and indexes stay in the state store (state-index-keys.ts): nothing is decoded
   * until read, and at most `cacheRows` decoded rows are kept. Its writes are recorded for the store.
   */
  static onDisk(reader: StoreReader, opts: DiskStateOptions): WorldState {
    const ctx = { reader, cache: new RowCache(opts.cacheRows), writingVersion: opts.version };
    const s = new WorldState(makeTables((def) => new DiskTableStore<unknown>(def, ctx, opts.count(def.tag))));
    s.disk = { ctx };
    s.versionNumber = opts.version;
    s.sum = opts.sum;
    if (opts.tree !== undefined) {
      assert(
        opts.tree.version === opts.version,
        `state tree of version ${opts.tree.version} for a state of ${opts.version}`,
      );
      s.stateTree = opts.tree;
    } else {
      const tree = opts.emptyTree;
      assert(
        tree !== undefined && opts.rows !== undefined && tree.version < opts.version,
        `a state of version ${opts.version} on disk without a tree to build on`,
      );
      tree.apply(tree.prepare([...opts.rows()], opts.version));
      s.stateTree = tree;
    }
    s.recordStoreWrites();
    return s;
  }

  /** Whether rows are read from the state store (`onDisk`) rather than held in the heap. */
  get onDisk(): boolean {
    return this.disk !== undefined;
  }

  /** Decoded rows held by the disk tables' cache (0 in the heap), and its bound. */
  rowCache(): { rows: number; max: number } {
    const c = this.disk?.ctx.cache;
    return { rows: c?.size ?? 0, max: c?.max ?? 0 };
  }

  /** From now on, every write's index entries and counts are collected for the state store. */
  recordStoreWrites(): void {
    this.writeLog ??= new StoreWriteLog();
    for (const t of this.tableList()) t.log = this.writeLog;
  }

  /**
   * The state store writes of the blocks merged since the last call (index entries, counts, the
   * accumulator); with `all`, every index entry and count (a store that had none).
   */
  takeStoreWrites(all = false): StoreWrite[] {
    assert(this.writeLog !== undefined, 'state store writes taken without recording them');
    const out = this.writeLog.take(this.tableList(), this.sum);
    if (all) for (const w of allStoreWrites(this.tableList())) out.push(w);
    return out;
  }

  /** The state store holds every write up to `version`: the disk tables drop their copies of them. */
  durable(version: number): void {
    if (this.disk === undefined) return;
    for (const t of this.tableList()) (t.store as DiskTableStore<unknown>).durable(version);
  }

  private tableList(): BaseTable<unknown>[] {
    return tableNames().map((n) => this.tables[n] as BaseTable<unknown>);
  }

  /**
   * Loads a state from persisted pairs (what StateStore returns); throws StateError on a bad entry.
   * `version` is the version (applied height) the entries are of (default 0). `tree` is the stored state
   * tree of that version; without it the tree is built from the entries, in memory unless `emptyTree`
   * (an empty tree over a store, at `version`) is given to build on.
   */
  static fromEntries(
    entries: Iterable<StateEntry>,
    opts: { version?: number; tree?: StateTree; emptyTree?: StateTree } = {},
  ): WorldState {
    const s = new WorldState();
    const version = opts.version ?? 0;
    s.versionNumber = version;
    const rows: StateEntry[] | undefined = opts.tree === undefined ? [] : undefined;
    const collected =
      rows === undefined
        ? entries
        : (function* () {
            for (const e of entries) {
              rows.push(e);
              yield e;
            }
          })();
    s.sum = loadEntries((name) => s.tables[name] as BaseTable<unknown>, collected);
    if (opts.tree !== undefined) {
      assert(
        opts.tree.version === version,
        `state tree of version ${opts.tree.version} for a state of ${version}`,
      );
      s.stateTree = opts.tree;
    } else {
      const tree = opts.emptyTree ?? memoryTree();
      assert(
        tree.version < version && tree.stateRoot().length === 32,
        `state tree of version ${tree.version} to build a state of version ${version} on`,
      );
      tree.apply(tree.prepare(rows!, version));
      s.stateTree = tree;
    }
    return s;
  }

  /** Every persisted pair, sorted by key. */
  *entries(): Generator<StateEntry> {
    const names = [...tableNames()].sort((a, b) => TABLES[a].tag - TABLES[b].tag);
    for (const name of names) {
      const table = this.tables[name] as BaseTable<unknown>;
      // Byte order of the UTF-8 keys, which can differ from the UTF-16 order of the ids.
      const keyed = table.sortedIds().map((id) => ({ id, key: table.key(id) }));
      keyed.sort((a, b) => compareBytes(a.key, b.key));
      for (const { id, key } of keyed) yield { key, value: table.encodeValue(table.get(id)!) };
    }
  }

  /** The state tree's root: the state root of header version 2 (docs/design/state.md). */
  stateRoot(): Uint8Array {
    return this.stateTree.stateRoot();
  }

  /** The multiset root (root.ts): the state root of header version 1. */
  legacyStateRoot(): Uint8Array {
    return publishRoot(this.sum);
  }

  /** The state root of the kind `headerRoot` is (its header version): what a header of that kind names. */
  stateRootLike(headerRoot: Uint8Array): Uint8Array {
    return stateRootVersion(headerRoot) === 1 ? this.legacyStateRoot() : this.stateRoot();
  }

  /** The state tree: proofs (`tree.prove(key, version)`), its version and pending writes. */
  get tree(): StateTree {
    return this.stateTree;
  }

  get rootSum(): bigint {
    return this.sum;
  }

  get version(): number {
    return this.versionNumber;
  }

  /** Merges a block's prepared writes (called by BlockExecution.commit only). */
  mergeWrites(
    expectedVersion: number,
    apply: (tables: StateTables) => void,
    newSum: bigint,
    treeUpdate: TreeUpdate,
  ): void {
    assert(expectedVersion === this.versionNumber, 'block execution was prepared against an older state');
    assert(
      treeUpdate.version === this.versionNumber + 1,
      `state tree update to version ${treeUpdate.version} for state version ${this.versionNumber}`,
    );
    if (this.disk !== undefined) this.disk.ctx.writingVersion = this.versionNumber + 1;
    apply(this.tables);
    this.sum = newSum;
    this.stateTree.apply(treeUpdate);
    this.versionNumber++;
  }

  // ---- read API: copies of model values, never the rows themselves ----------------------------------

  domain(id: string): Domain | undefined {
    return this.read('domain', id);
  }
  account(id: string): Account | undefined {
    return this.read('account', id);
  }
  assetDefinition(id: string): AssetDefinition | undefined {
    return this.read('assetDefinition', id);
  }
  asset(id: string): Asset | undefined {
    return this.read('asset', id);
  }
  nft(id: string): Nft | undefined {
    return this.read('nft', id);
  }
  role(id: string): Role | undefined {
    return this.read('role', id);
  }
  peer(id: string): Peer | undefined {
    return this.read('peer', id);
  }
  /** A runtime upgrade by its id (64 lower-case hex digits). */
  upgrade(id: string): UpgradeRecord | undefined {
    return this.read('upgrade', id);
  }

  parameters(): Parameters {
    return copy(this.tables.parameters.get(SINGLETON_ID) ?? defaultParameters());
  }
  /**
   * One numeric chain parameter, without copying the parameters (admission reads several per
   * submission, and `parameters()` copies the custom map each time).
   */
  limit(name: NumericParameter): number {
    return (this.tables.parameters.get(SINGLETON_ID) ?? DEFAULT_LIMITS)[name];
  }
  abiVersion(): number {
    return (this.tables.meta.get(SINGLETON_ID) ?? INITIAL_META).abiVersion;
  }
  genesisDomain(): string | undefined {
    return this.tables.meta.get(SINGLETON_ID)?.genesisDomain;
  }

  /**
   * Ids of a listed table in ascending code-unit order, without copying: the table's cached array,
   * replaced (never changed) by the next write, so a list route can page without reading every row.
   */
  sortedIds(table: 'domain' | 'account' | 'assetDefinition' | 'asset' | 'nft'): readonly string[] {
    return this.tables[table].sortedIds();
  }

  /**
   * A row without copying, for readers that only derive new values from it (list scans turn it into
   * JSON). Rows are shared with the state and must never be changed.
   */
  peek<N extends keyof ListedRows>(table: N, id: string): Readonly<ListedRows[N]> | undefined {
    return (this.tables[table] as unknown as BaseTable<ListedRows[N]>).get(id);
  }

  listDomains(): Domain[] {
    return this.list('domain');
  }
  listAccounts(): Account[] {
    return this.list('account');
  }
  listAssetDefinitions(): AssetDefinition[] {
    return this.list('assetDefinition');
  }
  listAssets(): Asset[] {
    return this.list('asset');
  }
  listNfts(): Nft[] {
    return this.list('nft');
  }
  listRoles(): Role[] {
    return this.list('role');
  }
  listPeers(): Peer[] {
    return this.list('peer');
  }
  listUpgrades(): UpgradeRecord[] {
    return this.list('upgrade');
  }

  accountsInDomain(domain: string): Account[] {
    return this.listLinked('account', 'accountsByDomain', domain);
  }
  assetDefinitionsInDomain(domain: string): AssetDefinition[] {
    return this.listLinked('assetDefinition', 'definitionsByDomain', domain);
  }
  nftsInDomain(domain: string): Nft[] {
    return this.listLinked('nft', 'nftsByDomain', domain);
  }
  assetsOfAccount(account: string): Asset[] {
    return this.listLinked('asset', 'assetsByAccount', account);
  }
  holdersOfDefinition(definition: string): Asset[] {
    return this.listLinked('asset', 'assetsByDefinition', definition);
  }
  /** How many assets of the definition are held: on disk one read of its stored count, not its holders. */
  holderCount(definition: string): number {
    return this.tables.asset.childCount('assetsByDefinition', definition);
  }
  /** The ids of the definition's assets, sorted (a shared array: never change it). */
  holderIds(definition: string): readonly string[] {
    return this.linkedIds('asset', 'assetsByDefinition', definition);
  }
  /**
   * The first `n` of holderIds(), reading only those on disk; undefined when the store must read them all
   * to tell (ids whose byte order is not their code-unit order).
   */
  firstHolderIds(definition: string, n: number): readonly string[] | undefined {
    return this.tables.asset.firstChildIds('assetsByDefinition', definition, n);
  }
  /** The account's direct permissions (not those it has through roles), sorted by permission key. */
  permissionsOfAccount(account: string): Permission[] {
    return copy([...(this.tables.accountPermissions.get(account) ?? [])]);
  }
  /** Ids of the roles the account holds, sorted. */
  rolesOfAccount(account: string): string[] {
    return [...(this.tables.accountRoles.get(account) ?? [])];
  }
  /** Ids of the accounts holding the role, sorted. */
  holdersOfRole(role: string): string[] {
    return [...this.linkedIds('accountRoles', 'holdersByRole', role)];
  }

  /** `text` read as an installed module's name standing in for an id (model/id-names.ts), or undefined. */
  idName(kind: NamedIdKind, text: string): IdName | undefined {
    for (const naming of installedIdNamings()) {
      const name = naming.name(this, kind, text);
      if (name !== undefined) return name;
    }
    return undefined;
  }
  /** How the installed modules' names of `kind` look, in registry order. */
  idNameForms(kind: NamedIdKind): string[] {
    return installedIdNamings().map((n) => n.forms[kind]);
  }

  // ---- shielded pool and nullifiers ------------------------------------------------------------------

  /**
   * The pool tree: every note commitment by leaf index (what a client needs to prove a spend) and
   * the recent roots a spend may name, newest last.
   */
  shieldedPool(): { leaves: string[]; roots: string[] } {
    const leaves: string[] = [];
    let roots: string[] = [];
    for (const row of this.list('shieldedPool')) {
      if (row.kind === 'Leaf') leaves.push(row.commitment);
      else roots = [...row.roots];
    }
    return { leaves, roots };
  }
  /** Leaves offset..offset+limit-1 of the pool tree (read by id: O(page)), the leaf count and roots. */
  shieldedPoolPage(offset: number, limit: number): { leaves: string[]; total: number; roots: string[] } {
    const tree = this.tables.shieldedPool.get(POOL_TREE_ID);
    if (tree === undefined || tree.kind !== 'Tree') return { leaves: [], total: 0, roots: [] };
    const leaves: string[] = [];
    for (let i = offset; i < Math.min(tree.count, offset + limit); i++) {
      const row = this.tables.shieldedPool.get(poolLeafId(i));
      if (row?.kind === 'Leaf') leaves.push(row.commitment);
    }
    return { leaves, total: tree.count, roots: [...tree.roots] };
  }
  /** Whether a nullifier is spent; `kind` is roster (join, leave), usage or note. */
  isNullifierSpent(kind: NullifierKind, nullifier: string): boolean {
    return this.tables.nullifier.get(nullifierId(kind, nullifier)) !== undefined;
  }

  /** For /metrics. */
  domainCount(): number {
    return this.tables.domain.size;
  }
  accountCount(): number {
    return this.tables.account.size;
  }

  /** Sorted ids of `table` rows linked to `parent` in `index` (may be the table's cached array: never change it). */
  /**
   * Children of `parent` in the ordered index of `table` (tables.ts `TableDef.order`), in value order;
   * undefined for a state in the heap (which keeps no ordered index) or when the walk cannot tell the
   * order (ordered-index.ts).
   */
  orderedChildren(table: TableName, parent: string, walk: OrderedWalk): OrderedStep[] | undefined {
    if (this.disk === undefined) return undefined;
    const store = (this.tables[table] as BaseTable<unknown>).store as DiskTableStore<unknown>;
    return store.orderedChildren(parent, walk);
  }

  /**
   * The definition's holders in balance order from the ordered holder index of a state on disk, `walk.max`
   * at a time; undefined for a state in the heap (it keeps no ordered index).
   */
  orderedHolders(definition: string, walk: OrderedWalk): OrderedStep[] | undefined {
    return this.orderedChildren('asset', definition, walk);
  }

  linkedIds(table: TableName, index: IndexName, parent: string): readonly string[] {
    return (this.tables[table] as BaseTable<unknown>).sortedChildIds(index, parent);
  }

  private read<N extends TableName>(name: N, id: string): RowOf<N> | undefined {
    const v = (this.tables[name] as BaseTable<RowOf<N>>).get(id);
    return v === undefined ? undefined : copy(v);
  }

  private list<N extends TableName>(name: N): RowOf<N>[] {
    const t = this.tables[name] as BaseTable<RowOf<N>>;
    return t.sortedIds().map((id) => copy(t.get(id)!));
  }

  private listLinked<N extends TableName>(name: N, index: IndexName, parent: string): RowOf<N>[] {
    const t = this.tables[name] as BaseTable<RowOf<N>>;
    return this.linkedIds(name, index, parent).map((id) => copy(t.get(id)!));
  }
}
