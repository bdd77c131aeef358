// Where each query's items come from (model/queries.ts). Items carry their output (still the state's own
// immutable rows: query.ts copies a batch before it leaves), a tie-break key that also gives the default
// order, and their JSON form for filters and sorting (computed only when needed).

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
import type { BlockSource, TxLocation } from './block-source.js';
import { type QueryError, queryError } from './errors.js';
import type { TableName } from './keys.js';
import type { IndexName } from './tables.js';
import type { WorldState } from './world-state.js';

export interface Item {
  readonly tie: string;
  readonly output: QueryOutput;
  json(): Json;
}

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

function rowItems(state: WorldState, kind: RowKind, ids: readonly string[]): Item[] {
  const { table, codec } = ROW_SOURCES[kind];
  const rows = state.tables[table];
  return ids.map((id) => {
    const value = rows.get(id)!;
    return {
      tie: id,
      output: { kind, value } as QueryOutput,
      json: () => (codec as AnyCodec).toJson(value) as Json,
    };
  });
}

function all(state: WorldState, kind: RowKind): Item[] {
  return rowItems(state, kind, state.tables[ROW_SOURCES[kind].table].sortedIds());
}

function linked(state: WorldState, kind: RowKind, index: IndexName, parent: string): Item[] {
  return rowItems(state, kind, state.linkedIds(ROW_SOURCES[kind].table, index, parent));
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

function txItems(blocks: BlockSource, locations: readonly TxLocation[]): Item[] {
  const out: Item[] = [];
  for (const l of locations) {
    const value = committedTransaction(blocks, l);
    if (value !== undefined) {
      out.push({
        tie: locationTie(l),
        output: { kind: 'Transaction', value },
        json: () => CommittedTransactionCodec.toJson(value),
      });
    }
  }
  return out;
}

function allTransactions(blocks: BlockSource): Item[] {
  const locations: TxLocation[] = [];
  for (let h = 1; h <= blocks.height(); h++) {
    const n = blocks.block(h)?.transactions.length ?? 0;
    for (let i = 0; i < n; i++) locations.push({ blockHeight: h, index: i });
  }
  return txItems(blocks, locations);
}

function allBlocks(blocks: BlockSource): Item[] {
  const out: Item[] = [];
  for (let h = 1; h <= blocks.height(); h++) {
    const value = blocks.block(h);
    if (value !== undefined) {
      out.push({
        tie: String(h).padStart(16, '0'),
        output: { kind: 'Block', value },
        json: () => BlockCodec.toJson(value),
      });
    }
  }
  return out;
}

function missing(what: string, id: string): QueryError {
  return queryError('not_found', `no ${what} ${id}`, { id });
}

/** Every item of an iterable query in default (tie) order, or not_found when its parent does not exist. */
export function iterableItems(state: WorldState, q: IterableQuery, blocks: BlockSource): Item[] | QueryError {
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
      return linked(state, 'Asset', 'assetsByDefinition', q.definition);
    case 'FindNfts':
      return all(state, 'Nft');
    case 'FindRoles':
      return all(state, 'Role');
    case 'FindRolesByAccount':
      if (!state.tables.account.get(q.account)) return missing('account', q.account);
      return rowItems(state, 'Role', state.tables.accountRoles.get(q.account) ?? []);
    case 'FindPermissionsByAccount':
      if (!state.tables.account.get(q.account)) return missing('account', q.account);
      return (state.tables.accountPermissions.get(q.account) ?? []).map((value) => ({
        tie: permissionKey(value),
        output: { kind: 'Permission', value },
        json: () => PermissionCodec.toJson(value),
      }));
    case 'FindPeers':
      return all(state, 'Peer');
    case 'FindTransactions':
      return allTransactions(blocks);
    case 'FindTransactionsByAccount':
      return txItems(blocks, blocks.transactionsOfAccount(q.account));
    case 'FindBlocks':
      return allBlocks(blocks);
    case 'FindUpgrades':
      return all(state, 'Upgrade');
  }
}
