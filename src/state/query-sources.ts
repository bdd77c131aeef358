// Where each query's items come from (model/queries.ts), as sources read by position:
// a query looks only at the items it needs — the page, or every item when a filter or sort must see
// them — and a cursor keeps a position or references, never decoded copies. Items carry a reference
// (an immutable state row, or a position in the chain), a tie-break key that also gives the default order,
// and their JSON form for filters and sorting (computed only when asked for).

import type { AnyCodec, Json } from '../codec/codec.js';
import { BlockCodec } from '../model/block.js';
import {
  AccountCodec,
  AssetCodec,
  AssetDefinitionCodec,
  DomainCodec,
  NftCodec,
  PeerCodec,
  RoleCodec,
  UpgradeRecordCodec,
} from '../model/entities.js';
import { PermissionCodec, permissionKey } from '../model/permissions.js';
import {
  type CommittedTransaction,
  CommittedTransactionCodec,
  type IterableQuery,
  type QueryOutput,
} from '../model/queries.js';
import { transactionHash } from '../model/transaction.js';
import { assert } from '../util/assert.js';
import type { BlockSource, TxLocation } from './block-source.js';
import { type QueryError, queryError } from './errors.js';
import type { TableName } from './keys.js';
import type { OrderedStep } from './ordered-index.js';
import { type OrderedItems, valueBounds } from './query-ordered.js';
import type { SortKey } from './sort.js';
import type { IndexName } from './tables.js';
import type { WorldState } from './world-state.js';

export interface Item {
  readonly tie: string;
  /** What a cursor keeps of the item: an immutable row or a chain position (a few bytes). */
  readonly ref: unknown;
  json(): Json;
}

export interface ItemSource {
  readonly count: number;
  /** Work units one item costs to read and turn into JSON (work-budget.ts). */
  readonly scanUnits: number;
  /** Positions never change (the chain is append-only): a cursor may keep a range instead of refs. */
  readonly stable: boolean;
  /** Items [from, to) in default order. */
  slice(from: number, to: number): Item[];
  output(ref: unknown): QueryOutput;
  /**
   * The items in the order of `key`, read from an ordered index, narrowed by the value comparisons of
   * `filter` (query-ordered.ts); absent, or undefined, when no index keeps that order.
   */
  ordered?(key: SortKey, filter: unknown): OrderedItems | undefined;
}

/** Scan costs: a row is cheap; a transaction or block must be read from the chain and hashed. */
const ROW_UNITS = 16;
const TX_UNITS = 64;
const BLOCK_UNITS = 256;

type RowKind = 'Domain' | 'Account' | 'AssetDefinition' | 'Asset' | 'Nft' | 'Role' | 'Peer' | 'Upgrade';
const ROW_SOURCES = {
  Domain: { table: 'domain', codec: DomainCodec },
  Account: { table: 'account', codec: AccountCodec },
  AssetDefinition: { table: 'assetDefinition', codec: AssetDefinitionCodec },
  Asset: { table: 'asset', codec: AssetCodec },
  Nft: { table: 'nft', codec: NftCodec },
  Role: { table: 'role', codec: RoleCodec },
  Peer: { table: 'peer', codec: PeerCodec },
  Upgrade: { table: 'upgrade', codec: UpgradeRecordCodec },
} as const satisfies Record<RowKind, { table: TableName; codec: unknown }>;

/** JSON field names of each kind's items (what `sort` may name first). */
export const ITEM_CODECS: Readonly<Record<QueryOutput['kind'], AnyCodec | undefined>> = {
  Domain: DomainCodec as AnyCodec,
  Account: AccountCodec as AnyCodec,
  AssetDefinition: AssetDefinitionCodec as AnyCodec,
  Asset: AssetCodec as AnyCodec,
  Nft: NftCodec as AnyCodec,
  Role: RoleCodec as AnyCodec,
  Peer: PeerCodec as AnyCodec,
  Upgrade: UpgradeRecordCodec as AnyCodec,
  Permission: PermissionCodec as AnyCodec,
  Transaction: CommittedTransactionCodec as AnyCodec,
  Block: BlockCodec as AnyCodec,
  Parameters: undefined,
};

/**
 * Rows by id: `count` of them, `idsUpTo(to)` giving at least the first `to` ids in default order (or
 * all of them) without ever changing an array it returned.
 */
function rowSource(
  state: WorldState,
  kind: RowKind,
  count: () => number,
  idsUpTo: (to: number) => readonly string[],
): ItemSource {
  const rows = rowItems(state, kind);
  return {
    get count() {
      return count();
    },
    scanUnits: ROW_UNITS,
    stable: false,
    slice: (from, to) => rows(idsUpTo(to).slice(from, to)),
    output: (value) => ({ kind, value }) as QueryOutput,
  };
}

/** The items of the rows with the given ids (every one must exist). */
function rowItems(state: WorldState, kind: RowKind): (ids: readonly string[]) => Item[] {
  const { table, codec } = ROW_SOURCES[kind];
  const rows = state.tables[table];
  return (ids) =>
    ids.map((id) => {
      const value = rows.get(id);
      assert(value !== undefined, `query: no ${table} row ${id} for an id of its index`);
      return { tie: id, ref: value, json: () => (codec as AnyCodec).toJson(value) as Json };
    });
}

/**
 * A page that ends within this many ids of a whole table is read from the start of the table's ordered
 * range (the first ids only: a limit-10 list of a million accounts reads 10 ids, not a million); a
 * longer one, or a scan (filter, sort) past it, takes the table's whole sorted id list once.
 */
export const FIRST_IDS_READ_MAX = 1024;

function all(state: WorldState, kind: RowKind): ItemSource {
  const t = state.tables[ROW_SOURCES[kind].table];
  let ids: readonly string[] | undefined;
  return rowSource(
    state,
    kind,
    () => t.size,
    (to) => {
      if (ids !== undefined) return ids;
      const first = to <= FIRST_IDS_READ_MAX ? t.firstIds(to) : undefined;
      if (first !== undefined) return first;
      ids = t.sortedIds();
      return ids;
    },
  );
}

/** Rows of the given ids, in that order. */
function listSource(state: WorldState, kind: RowKind, ids: readonly string[]): ItemSource {
  return rowSource(
    state,
    kind,
    () => ids.length,
    () => ids,
  );
}

/** The rows linked to `parent` in `index`, by id; the ids are read when first needed. */
function linked(state: WorldState, kind: RowKind, index: IndexName, parent: string): ItemSource {
  let ids: readonly string[] | undefined;
  const get = () => {
    ids ??= state.linkedIds(ROW_SOURCES[kind].table, index, parent);
    return ids;
  };
  return rowSource(state, kind, () => get().length, get);
}

/**
 * The holders of `definition` (asset rows), counted from the state's holder count (on disk one read) and
 * paged as `all` pages a table: a page within FIRST_IDS_READ_MAX reads its first ids alone, a longer one
 * or a scan takes the sorted id list once. Their order by `value` is read from the ordered holder index
 * of a ledger on disk (`holdersByValue`), a few at a time, resuming after the last one read.
 */
function holders(state: WorldState, definition: string): ItemSource {
  let ids: readonly string[] | undefined;
  const source = rowSource(
    state,
    'Asset',
    () => ids?.length ?? state.holderCount(definition),
    (to) => {
      if (ids !== undefined) return ids;
      const first = to <= FIRST_IDS_READ_MAX ? state.firstHolderIds(definition, to) : undefined;
      if (first !== undefined) return first;
      ids = state.holderIds(definition);
      return ids;
    },
  );
  const items = rowItems(state, 'Asset');
  source.ordered = (key, filter) => {
    if (key.segments.length !== 1 || key.segments[0] !== 'value') return undefined;
    const bounds = valueBounds(filter, 'value');
    let after: OrderedStep | undefined;
    let ended = false;
    const take = (n: number) => {
      if (ended) return [];
      const steps = state.orderedChildren('asset', definition, {
        descending: key.descending,
        ...bounds,
        ...(after === undefined ? {} : { after }),
        max: n,
      });
      if (steps === undefined) return undefined;
      if (steps.length < n) ended = true;
      after = steps.at(-1) ?? after;
      return items(steps.map((s) => s.child));
    };
    // A state in the heap keeps no ordered index: known at the first read.
    return state.onDisk ? { take } : undefined;
  };
  return source;
}

/** Zero-padded so that string order is numeric order. */
export function locationTie(l: TxLocation): string {
  return `${String(l.blockHeight).padStart(16, '0')}:${String(l.index).padStart(10, '0')}`;
}

export function committedTransaction(blocks: BlockSource, l: TxLocation): CommittedTransaction | undefined {
  const b = blocks.block(l.blockHeight);
  const transaction = b?.transactions[l.index];
  const result = b?.results[l.index];
  if (transaction === undefined || result === undefined) return undefined;
  return {
    hash: transactionHash(transaction),
    blockHeight: l.blockHeight,
    index: l.index,
    transaction,
    result,
  };
}

/** Transactions at positions 0..count-1 of a list of locations given by `at`. */
function txSource(blocks: BlockSource, count: number, at: (n: number) => TxLocation): ItemSource {
  const value = (n: number) => committedTransaction(blocks, at(n));
  return {
    count,
    scanUnits: TX_UNITS,
    stable: true,
    slice: (from, to) => {
      const out: Item[] = [];
      for (let n = from; n < Math.min(to, count); n++) {
        // Read (and hashed) only when a filter or sort asks: a scan asks once per item.
        const json = () => CommittedTransactionCodec.toJson(value(n)!);
        out.push({ tie: locationTie(at(n)), ref: n, json });
      }
      return out;
    },
    output: (n) => ({ kind: 'Transaction', value: value(n as number)! }),
  };
}

/** The n-th transaction of the chain (0-based): the lowest height whose running count exceeds n. */
function nthTransaction(blocks: BlockSource, height: number, n: number): TxLocation {
  let lo = 1;
  let hi = height;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (blocks.transactionsUpTo(mid) > n) hi = mid;
    else lo = mid + 1;
  }
  return { blockHeight: lo, index: n - blocks.transactionsUpTo(lo - 1) };
}

function allTransactions(blocks: BlockSource): ItemSource {
  const height = blocks.height();
  return txSource(blocks, blocks.transactionsUpTo(height), (n) => nthTransaction(blocks, height, n));
}

function allBlocks(blocks: BlockSource): ItemSource {
  const block = (h: number) => ({ kind: 'Block', value: blocks.block(h)! }) as QueryOutput;
  return {
    count: blocks.height(),
    scanUnits: BLOCK_UNITS,
    stable: true,
    slice: (from, to) =>
      Array.from({ length: Math.max(0, Math.min(to, blocks.height()) - from) }, (_, i) => {
        const h = from + i + 1;
        return { tie: String(h).padStart(16, '0'), ref: h, json: () => BlockCodec.toJson(blocks.block(h)!) };
      }),
    output: (h) => block(h as number),
  };
}

function permissions(state: WorldState, account: string): ItemSource {
  const values = state.tables.accountPermissions.get(account) ?? [];
  return {
    count: values.length,
    scanUnits: ROW_UNITS,
    stable: false,
    slice: (from, to) =>
      values.slice(from, to).map((value) => ({
        tie: permissionKey(value),
        ref: value,
        json: () => PermissionCodec.toJson(value),
      })),
    output: (value) => ({ kind: 'Permission', value }) as QueryOutput,
  };
}

function missing(what: string, id: string): QueryError {
  return queryError('not_found', `no ${what} ${id}`, { id });
}

/** The items of an iterable query in default (tie) order, or not_found when its parent does not exist. */
export function iterableSource(
  state: WorldState,
  q: IterableQuery,
  blocks: BlockSource,
): ItemSource | QueryError {
  switch (q.kind) {
    case 'FindDomains':
      return all(state, 'Domain');
    case 'FindAccounts':
      return all(state, 'Account');
    case 'FindAccountsInDomain':
      if (!state.tables.domain.get(q.domain)) return missing('domain', q.domain);
      return linked(state, 'Account', 'accountsByDomain', q.domain);
    case 'FindAssetDefinitions':
      return all(state, 'AssetDefinition');
    case 'FindAssets':
      return all(state, 'Asset');
    case 'FindAssetsByAccount':
      if (!state.tables.account.get(q.account)) return missing('account', q.account);
      return linked(state, 'Asset', 'assetsByAccount', q.account);
    case 'FindHoldersOfDefinition':
      if (!state.tables.assetDefinition.get(q.definition)) return missing('asset definition', q.definition);
      return holders(state, q.definition);
    case 'FindNfts':
      return all(state, 'Nft');
    case 'FindRoles':
      return all(state, 'Role');
    case 'FindRolesByAccount':
      if (!state.tables.account.get(q.account)) return missing('account', q.account);
      return listSource(state, 'Role', state.tables.accountRoles.get(q.account) ?? []);
    case 'FindPermissionsByAccount':
      if (!state.tables.account.get(q.account)) return missing('account', q.account);
      return permissions(state, q.account);
    case 'FindPeers':
      return all(state, 'Peer');
    case 'FindTransactions':
      return allTransactions(blocks);
    case 'FindTransactionsByAccount': {
      const locations = blocks.transactionsOfAccount(q.account);
      return txSource(blocks, locations.length, (n) => locations[n]!);
    }
    case 'FindBlocks':
      return allBlocks(blocks);
    case 'FindUpgrades':
      return all(state, 'Upgrade');
  }
}

/** The kind of output an iterable query's items have (for checking its sort fields). */
export function itemKindOf(q: IterableQuery): QueryOutput['kind'] {
  switch (q.kind) {
    case 'FindDomains':
      return 'Domain';
    case 'FindAccounts':
    case 'FindAccountsInDomain':
      return 'Account';
    case 'FindAssetDefinitions':
      return 'AssetDefinition';
    case 'FindAssets':
    case 'FindAssetsByAccount':
    case 'FindHoldersOfDefinition':
      return 'Asset';
    case 'FindNfts':
      return 'Nft';
    case 'FindRoles':
    case 'FindRolesByAccount':
      return 'Role';
    case 'FindPermissionsByAccount':
      return 'Permission';
    case 'FindPeers':
      return 'Peer';
    case 'FindTransactions':
    case 'FindTransactionsByAccount':
      return 'Transaction';
    case 'FindBlocks':
      return 'Block';
    case 'FindUpgrades':
      return 'Upgrade';
  }
}
