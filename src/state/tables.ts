// The tables of the world state: for each, its key tag, the codec of its persisted value, how to read
// the row id back out of a value (checked when loading), and the secondary indexes a row belongs to.
// Indexes are derived from row contents only, so they are rebuilt, never persisted. The core's tables are
// defined here; a ledger module defines its own in its `wire.ts` (`declareTables`, augmenting `TableRows`
// and `IndexNames`); every table's id is in model/tags.ts TABLE_TAGS.

import type { Codec } from '../codec/codec.js';
import { option, seq, struct } from '../codec/compound.js';
import { varuint } from '../codec/primitives.js';
import {
  type Account,
  AccountCodec,
  type Asset,
  AssetCodec,
  type AssetDefinition,
  AssetDefinitionCodec,
  type Domain,
  DomainCodec,
  type Nft,
  NftCodec,
  type Peer,
  PeerCodec,
  type Role,
  RoleCodec,
  type UpgradeRecord,
  UpgradeRecordCodec,
} from '../model/entities.js';
import {
  DomainId,
  parseAccountId,
  parseAssetId,
  parseDefinitionId,
  parseNftId,
  RoleId,
} from '../model/ids.js';
import { type Parameters, ParametersRowCodec } from '../model/parameters.js';
import { type Permission, PermissionCodec, permissionKey } from '../model/permissions.js';
import {
  type NullifierRecord,
  NullifierRecordCodec,
  poolRowId,
  type ShieldedPoolRow,
  ShieldedPoolRowCodec,
} from '../model/shielded.js';
import type { SameNames } from '../model/tags.js';
import { SINGLETON_ID, TABLE_TAGS, type TableName } from './keys.js';
import { numericOrderKey } from './state-index-keys.js';

/** Bookkeeping of the state itself, persisted like any other row. */
export const StateMetaCodec = struct('StateMeta', {
  /** The authority domain of block 1; it can never be unregistered. */
  genesisDomain: option(DomainId),
  /** The active runtime ABI version (1 until an upgrade is activated). */
  abiVersion: varuint,
});
export interface StateMeta {
  genesisDomain?: string;
  abiVersion: number;
}
export const INITIAL_META: Readonly<StateMeta> = Object.freeze({ abiVersion: 1 });

/** An index membership of a row: (index name, parent id). */
export type IndexLink = readonly [IndexName, string];

/**
 * The secondary indexes, by name (the values are unused): the core's, and each module's by augmentation
 * in its `wire.ts`.
 */
export interface IndexNames {
  accountsByDomain: unknown;
  definitionsByDomain: unknown;
  nftsByDomain: unknown;
  assetsByAccount: unknown;
  assetsByDefinition: unknown;
  /** A definition's holders ordered by balance (kept in the state store only: `TableDef.order`). */
  holdersByValue: unknown;
  holdersByRole: unknown;
  /** Peers by BLS key text, disabled ones included: a consensus key is used once, ever. */
  peersByBlsKey: unknown;
  /** Peers not disabled (active or about to be), under the parent ''. */
  livePeers: unknown;
}
export type IndexName = keyof IndexNames & string;

/** A row's place in an ordered index: under `parent`, at the fixed-width `key` (state-index-keys.ts). */
export interface OrderedEntry {
  readonly parent: string;
  readonly key: Uint8Array;
}

/**
 * An index ordered by a value of the row, kept only in the state store (a ledger on disk), beside the
 * rows and outside the state root: the rows of one parent in key order, then by id.
 */
export interface OrderedIndex<V> {
  readonly index: IndexName;
  of(id: string, v: V): OrderedEntry;
}

export interface TableDef<V> {
  readonly name: TableName;
  readonly tag: number;
  readonly codec: Codec<V>;
  /** The id a value must be stored under (checked by fromEntries); undefined for list rows keyed by owner. */
  readonly idOf?: (v: V) => string;
  readonly links?: (id: string, v: V) => readonly IndexLink[];
  /**
   * True when `links` depends on the id alone, never on the value: replacing an existing row then cannot
   * move it between index entries, so index upkeep is skipped on updates (the hot path of transfers).
   */
  readonly linksById?: boolean;
  /**
   * Indexes whose child count per parent the state store keeps (state-index-keys.ts `childCountKey`), so
   * a count on disk is one read instead of a scan of the parent's range (a definition's holders).
   */
  readonly counted?: readonly IndexName[];
  /** The table's ordered index (the state store keeps it; the heap does not). */
  readonly order?: OrderedIndex<V>;
  /** Keep `sortedIds()` up to date by insertion instead of re-sorting (small tables read every block). */
  readonly keepSorted?: boolean;
  /** Extra consistency check on load: why the row is invalid, or undefined. */
  readonly check?: (id: string, v: V) => string | undefined;
}

/** A list row must be keyed by a canonical account id and hold a non-empty, strictly increasing list. */
function checkList<T>(keyOf: (item: T) => string) {
  return (id: string, items: readonly T[]): string | undefined => {
    const a = parseAccountId(id);
    if (a === undefined || `${a.signatory}@${a.domain}` !== id) return 'key is not a canonical account id';
    if (items.length === 0) return 'empty list row';
    for (let i = 1; i < items.length; i++) {
      if (keyOf(items[i - 1]!) >= keyOf(items[i]!)) return 'list not strictly sorted';
    }
    return undefined;
  };
}

/** A table's definition (`name` must have an id in model/tags.ts TABLE_TAGS). */
export function tableDef<V>(
  name: TableName,
  codec: Codec<V>,
  extra: Omit<TableDef<V>, 'name' | 'tag' | 'codec'> = {},
): TableDef<V> {
  return Object.freeze({ name, tag: TABLE_TAGS[name], codec, ...extra });
}

const domainOf = (id: string, parse: (t: string) => { domain: string } | undefined): string =>
  parse(id)?.domain ?? '';

/** The core's tables. */
const CORE_TABLES = Object.freeze({
  domain: tableDef<Domain>('domain', DomainCodec, { idOf: (v) => v.id }),
  account: tableDef<Account>('account', AccountCodec, {
    idOf: (v) => v.id,
    links: (id) => [['accountsByDomain', domainOf(id, parseAccountId)]],
    linksById: true,
  }),
  assetDefinition: tableDef<AssetDefinition>('assetDefinition', AssetDefinitionCodec, {
    idOf: (v) => v.id,
    links: (id) => [['definitionsByDomain', domainOf(id, parseDefinitionId)]],
    linksById: true,
  }),
  asset: tableDef<Asset>('asset', AssetCodec, {
    idOf: (v) => v.id,
    linksById: true,
    links: (id) => {
      const p = parseAssetId(id);
      return p === undefined
        ? []
        : [
            ['assetsByAccount', p.account],
            ['assetsByDefinition', p.definition],
          ];
    },
    counted: ['assetsByDefinition'],
    order: {
      index: 'holdersByValue',
      // The id is a stored row's, so well formed: its definition is the text before the second '#'.
      of: (id, v) => ({
        parent: id.slice(0, id.indexOf('#', id.indexOf('#') + 1)),
        key: numericOrderKey(v.value),
      }),
    },
  }),
  nft: tableDef<Nft>('nft', NftCodec, {
    idOf: (v) => v.id,
    links: (id) => [['nftsByDomain', domainOf(id, parseNftId)]],
    linksById: true,
  }),
  role: tableDef<Role>('role', RoleCodec, { idOf: (v) => v.id }),
  /** Direct permissions of an account, keyed by account id, sorted by permissionKey, never empty. */
  accountPermissions: tableDef<readonly Permission[]>('accountPermissions', seq(PermissionCodec), {
    check: checkList(permissionKey),
  }),
  /** Roles held by an account, keyed by account id, sorted, never empty. */
  accountRoles: tableDef<readonly string[]>('accountRoles', seq(RoleId), {
    links: (_id, roles) => roles.map((r) => ['holdersByRole', r] as const),
    check: checkList((r: string) => r),
  }),
  peer: tableDef<Peer>('peer', PeerCodec, {
    idOf: (v) => v.id,
    links: (_id, v) =>
      v.disabledAt === undefined
        ? [
            ['peersByBlsKey', v.blsKey],
            ['livePeers', ''],
          ]
        : [['peersByBlsKey', v.blsKey]],
    check: (_id, v) =>
      v.activeFrom !== v.registeredAt + 1
        ? 'activeFrom is not registeredAt + 1'
        : v.disabledAt !== undefined && v.disabledAt < v.registeredAt
          ? 'disabledAt before registeredAt'
          : undefined,
  }),
  upgrade: tableDef<UpgradeRecord>('upgrade', UpgradeRecordCodec, { idOf: (v) => v.id }),
  parameters: tableDef<Parameters>('parameters', ParametersRowCodec, { idOf: () => SINGLETON_ID }),
  meta: tableDef<StateMeta>('meta', StateMetaCodec, { idOf: () => SINGLETON_ID }),
  nullifier: tableDef<NullifierRecord>('nullifier', NullifierRecordCodec, { idOf: (v) => v.id }),
  shieldedPool: tableDef<ShieldedPoolRow>('shieldedPool', ShieldedPoolRowCodec, { idOf: poolRowId }),
});

type CoreTableRows = {
  [N in keyof typeof CORE_TABLES]: (typeof CORE_TABLES)[N] extends TableDef<infer V> ? V : never;
};

/** Every table's row type, by name: the core's, and each module's by augmentation in its `wire.ts`. */
export interface TableRows extends CoreTableRows {}
// `& keyof TableRows`: the same type here (TABLE_ROWS_MATCH_TAGS), and valid in the SDK's published
// declarations, which hold no module's augmentation.
export type RowOf<N extends TableName> = TableRows[N & keyof TableRows];

/** Compile-time check: the tag table and the defined tables name the same tables. */
export const TABLE_ROWS_MATCH_TAGS: SameNames<TableName, keyof TableRows> = true;

/** Every table's definition, by name: the core's, and the installed modules' (`declareTables`). */
export const TABLES: { readonly [N in TableName]: TableDef<RowOf<N>> } = { ...CORE_TABLES } as {
  [N in TableName]: TableDef<RowOf<N>>;
};

let names: readonly TableName[] | undefined;

/** Defines a module's tables (before the first world state is made). */
export function declareTables(defs: readonly TableDef<never>[]): void {
  if (names !== undefined)
    throw new Error(`tables ${defs.map((d) => d.name).join(', ')} defined after first use`);
  for (const d of defs) {
    if (Object.hasOwn(TABLES, d.name)) throw new Error(`table ${d.name} is defined twice`);
    (TABLES as unknown as Record<string, TableDef<never>>)[d.name] = d;
  }
}

/**
 * Every table name, in tag order; the first call closes the list and throws when a table id of
 * model/tags.ts has no definition (a module's wire not installed).
 */
export function tableNames(): readonly TableName[] {
  if (names === undefined) {
    const all = Object.keys(TABLE_TAGS) as TableName[];
    const lacking = all.filter((n) => !Object.hasOwn(TABLES, n));
    if (lacking.length > 0)
      throw new Error(
        `tables ${lacking.join(', ')} have no definition (import src/modules/registry.ts to declare the modules' tables)`,
      );
    names = Object.freeze(all.sort((a, b) => TABLE_TAGS[a] - TABLE_TAGS[b]));
  }
  return names;
}
