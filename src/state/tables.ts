// The tables of the world state: for each, its key tag, the codec of its persisted value, how to read
// the row id back out of a value (checked when loading), and the secondary indexes a row belongs to.
// Indexes are derived from row contents only, so they are rebuilt, never persisted.

import type { Codec } from '../codec/codec.js';
import { option, seq, struct } from '../codec/compound.js';
import { varuint } from '../codec/primitives.js';
import {
  type AccountAlias,
  AccountAliasCodec,
  type AliasCounter,
  AliasCounterCodec,
  type AssetAlias,
  AssetAliasCodec,
  accountAliasProblem,
  aliasDomain,
  assetAliasProblem,
} from '../model/aliases.js';
import {
  type ConferenceCall,
  ConferenceCallCodec,
  type ConferenceRelay,
  ConferenceRelayCodec,
  MAX_PARTICIPANTS_LIMIT,
  parseCallId,
} from '../model/conference.js';
import {
  type AssetControl,
  AssetControlCodec,
  controlProblem,
  type DefinitionControl,
  DefinitionControlCodec,
  sortedProblem,
} from '../model/controls.js';
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
  assetId,
  DomainId,
  parseAccountId,
  parseAssetId,
  parseDefinitionId,
  parseNftId,
  RoleId,
} from '../model/ids.js';
import { type MultisigAccount, MultisigAccountCodec, proposalRowId, specProblem } from '../model/multisig.js';
import { type MultisigProposal, MultisigProposalCodec, proposalProblem } from '../model/multisig-proposal.js';
import { type Parameters, ParametersRowCodec } from '../model/parameters.js';
import { type Permission, PermissionCodec, permissionKey } from '../model/permissions.js';
import {
  type NullifierRecord,
  NullifierRecordCodec,
  poolRowId,
  type ShieldedPoolRow,
  ShieldedPoolRowCodec,
} from '../model/shielded.js';
import {
  type Subscription,
  SubscriptionCodec,
  type SubscriptionPlan,
  SubscriptionPlanCodec,
} from '../model/subscriptions.js';
import { type Trigger, TriggerCodec } from '../model/trigger-row.js';
import {
  dueKey,
  isLedgerTrigger,
  type TriggerDueRow,
  TriggerDueRowCodec,
  triggerIdProblem,
} from '../model/triggers.js';
import { SINGLETON_ID, TABLE_TAGS, type TableName } from './keys.js';

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
export type IndexName =
  | 'accountsByDomain'
  | 'definitionsByDomain'
  | 'nftsByDomain'
  | 'assetsByAccount'
  | 'assetsByDefinition'
  | 'holdersByRole'
  /** Peers by BLS key text, disabled ones included: a consensus key is used once, ever. */
  | 'peersByBlsKey'
  /** Peers not disabled (active or about to be), under the parent ''. */
  | 'livePeers'
  /** Conference calls by the domain of their id. */
  | 'callsByDomain'
  /** Account aliases by the account they name, by their own domain, and by index (decimal text). */
  | 'aliasesByAccount'
  | 'aliasesByDomain'
  | 'aliasByIndex'
  /** Asset aliases by the definition they name (at most one each). */
  | 'aliasesByDefinition'
  /** Multisig accounts by each signatory (member → multisigs). */
  | 'multisigsByMember'
  /** Proposals by their multisig account (multisig → proposals). */
  | 'proposalsByMultisig'
  /** Proposals stored as collecting signatures by multisig and proposer (`<multisig> <proposer>`). */
  | 'openProposalsByProposer'
  /** Account transfer controls (0x17) by account and by definition (cascades on unregister). */
  | 'controlsByAccount'
  | 'controlsByDefinition'
  /** Triggers by their authority; plans by provider; subscriptions by subscriber and by provider. */
  | 'triggersByAuthority'
  | 'plansByProvider'
  | 'subscriptionsBySubscriber'
  | 'subscriptionsByProvider';

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

/** Load check of a call row: a consistent roster, status and end record (docs/conference.md). */
function checkCall(v: ConferenceCall): string | undefined {
  const r = v.roster;
  if (v.maxParticipants < 1 || v.maxParticipants > MAX_PARTICIPANTS_LIMIT)
    return 'maxParticipants out of range';
  if ((r.kind === 'Transparent') !== (v.privacy.kind === 'Transparent')) return 'roster differs from privacy';
  const active = r.kind === 'Transparent' ? r.participants.length : r.active;
  if (active > v.maxParticipants) return 'roster larger than maxParticipants';
  if (r.kind === 'Transparent') {
    for (let i = 1; i < r.participants.length; i++)
      if (r.participants[i - 1]! >= r.participants[i]!) return 'participants not strictly sorted';
  }
  const ended = v.status.kind === 'Ended';
  if (ended !== (v.endedHeight !== undefined) || ended !== (v.endedAtMs !== undefined))
    return 'end record does not match the status';
  return undefined;
}

function def<V>(
  name: TableName,
  codec: Codec<V>,
  extra: Omit<TableDef<V>, 'name' | 'tag' | 'codec'> = {},
): TableDef<V> {
  return Object.freeze({ name, tag: TABLE_TAGS[name], codec, ...extra });
}

const domainOf = (id: string, parse: (t: string) => { domain: string } | undefined): string =>
  parse(id)?.domain ?? '';

export const TABLES = Object.freeze({
  domain: def<Domain>('domain', DomainCodec, { idOf: (v) => v.id }),
  account: def<Account>('account', AccountCodec, {
    idOf: (v) => v.id,
    links: (id) => [['accountsByDomain', domainOf(id, parseAccountId)]],
    linksById: true,
  }),
  assetDefinition: def<AssetDefinition>('assetDefinition', AssetDefinitionCodec, {
    idOf: (v) => v.id,
    links: (id) => [['definitionsByDomain', domainOf(id, parseDefinitionId)]],
    linksById: true,
  }),
  asset: def<Asset>('asset', AssetCodec, {
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
  }),
  nft: def<Nft>('nft', NftCodec, {
    idOf: (v) => v.id,
    links: (id) => [['nftsByDomain', domainOf(id, parseNftId)]],
    linksById: true,
  }),
  role: def<Role>('role', RoleCodec, { idOf: (v) => v.id }),
  /** Direct permissions of an account, keyed by account id, sorted by permissionKey, never empty. */
  accountPermissions: def<readonly Permission[]>('accountPermissions', seq(PermissionCodec), {
    check: checkList(permissionKey),
  }),
  /** Roles held by an account, keyed by account id, sorted, never empty. */
  accountRoles: def<readonly string[]>('accountRoles', seq(RoleId), {
    links: (_id, roles) => roles.map((r) => ['holdersByRole', r] as const),
    check: checkList((r: string) => r),
  }),
  peer: def<Peer>('peer', PeerCodec, {
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
  upgrade: def<UpgradeRecord>('upgrade', UpgradeRecordCodec, { idOf: (v) => v.id }),
  parameters: def<Parameters>('parameters', ParametersRowCodec, { idOf: () => SINGLETON_ID }),
  meta: def<StateMeta>('meta', StateMetaCodec, { idOf: () => SINGLETON_ID }),
  conferenceCall: def<ConferenceCall>('conferenceCall', ConferenceCallCodec, {
    idOf: (v) => v.id,
    links: (id) => [['callsByDomain', domainOf(id, parseCallId)]],
    linksById: true,
    check: (_id, v) => checkCall(v),
  }),
  conferenceRelay: def<ConferenceRelay>('conferenceRelay', ConferenceRelayCodec, {
    idOf: (v) => v.id,
    check: (_id, v) => (v.publicKey.every((b) => b === 0) ? 'all-zero relay key' : undefined),
  }),
  nullifier: def<NullifierRecord>('nullifier', NullifierRecordCodec, { idOf: (v) => v.id }),
  shieldedPool: def<ShieldedPoolRow>('shieldedPool', ShieldedPoolRowCodec, { idOf: poolRowId }),
  accountAlias: def<AccountAlias>('accountAlias', AccountAliasCodec, {
    idOf: (v) => v.alias,
    links: (id, v) => [
      ['aliasesByAccount', v.account],
      ['aliasesByDomain', aliasDomain(id)],
      ['aliasByIndex', String(v.index)],
    ],
    check: (id, v) => accountAliasProblem(id)?.message ?? (v.index < 1 ? 'index below 1' : undefined),
  }),
  aliasCounter: def<AliasCounter>('aliasCounter', AliasCounterCodec, { idOf: () => SINGLETON_ID }),
  assetAlias: def<AssetAlias>('assetAlias', AssetAliasCodec, {
    idOf: (v) => v.alias,
    links: (_id, v) => [['aliasesByDefinition', v.definition]],
    check: (id) => assetAliasProblem(id)?.message,
  }),
  multisigAccount: def<MultisigAccount>('multisigAccount', MultisigAccountCodec, {
    idOf: (v) => v.account,
    links: (_id, v) => [...v.spec.signatories.keys()].map((m) => ['multisigsByMember', m] as const),
    check: (id, v) => specProblem(id, v.spec),
  }),
  multisigProposal: def<MultisigProposal>('multisigProposal', MultisigProposalCodec, {
    idOf: (v) => proposalRowId(v.multisig, v.instructionsHash),
    links: (_id, v) =>
      v.status.kind === 'CollectingSignatures'
        ? [
            ['proposalsByMultisig', v.multisig],
            ['openProposalsByProposer', `${v.multisig} ${v.proposer}`],
          ]
        : [['proposalsByMultisig', v.multisig]],
    check: proposalProblem,
  }),
  assetControl: def<AssetControl>('assetControl', AssetControlCodec, {
    idOf: (v) => assetId(v.definition, v.account),
    linksById: true,
    links: (id) => {
      const p = parseAssetId(id);
      return p === undefined
        ? []
        : [
            ['controlsByAccount', p.account],
            ['controlsByDefinition', p.definition],
          ];
    },
    check: (_id, v) => controlProblem(v.limits, v.usages),
  }),
  definitionControl: def<DefinitionControl>('definitionControl', DefinitionControlCodec, {
    idOf: (v) => v.definition,
    check: (_id, v) =>
      controlProblem(v.limits, []) ?? sortedProblem(v.allowList) ?? sortedProblem(v.denyList),
  }),
  trigger: def<Trigger>('trigger', TriggerCodec, {
    idOf: (v) => v.id,
    links: (_id, v) => [['triggersByAuthority', v.authority]],
    check: (id) => (isLedgerTrigger(id) ? undefined : triggerIdProblem(id)),
  }),
  triggerDue: def<TriggerDueRow>('triggerDue', TriggerDueRowCodec, {
    idOf: (v) => dueKey(v.due, v.trigger),
    keepSorted: true,
  }),
  subscriptionPlan: def<SubscriptionPlan>('subscriptionPlan', SubscriptionPlanCodec, {
    idOf: (v) => v.id,
    links: (_id, v) => [['plansByProvider', v.provider]],
  }),
  subscription: def<Subscription>('subscription', SubscriptionCodec, {
    idOf: (v) => v.id,
    links: (_id, v) => [
      ['subscriptionsBySubscriber', v.subscriber],
      ['subscriptionsByProvider', v.provider],
    ],
    linksById: true,
  }),
});

export type Tables = typeof TABLES;
export type RowOf<N extends TableName> = Tables[N] extends TableDef<infer V> ? V : never;
export const TABLE_NAMES = Object.keys(TABLES) as TableName[];
