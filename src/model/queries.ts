// Signed queries (docs/data-model.md §Queries): a singular query, the start of an
// iterable query (filter, sort, pagination, fetch size), or the continuation of one through a cursor.

import type { Infer } from '../codec/codec.js';
import { enumOf, option, seq, struct } from '../codec/compound.js';
import { jsonValue, string, varuint } from '../codec/primitives.js';
import { BlockCodec, TransactionResultCodec } from './block.js';
import {
  AccountCodec,
  AssetCodec,
  AssetDefinitionCodec,
  DomainCodec,
  NftCodec,
  PeerCodec,
  RoleCodec,
  UpgradeRecordCodec,
} from './entities.js';
import { AccountId, AssetDefinitionId, AssetId, DomainId, NftId, RoleId } from './ids.js';
import { Hash, HashBytes, SignatureBytes } from './keys.js';
import { ParametersCodec } from './parameters.js';
import { PermissionCodec } from './permissions.js';
import { CHAIN_ID_BYTES_MAX, SignedTransactionCodec } from './transaction.js';

export const SingularQueryCodec = enumOf('SingularQuery', {
  FindDomainById: { id: DomainId },
  FindAccountById: { id: AccountId },
  FindAssetDefinitionById: { id: AssetDefinitionId },
  FindAssetById: { id: AssetId },
  FindNftById: { id: NftId },
  FindRoleById: { id: RoleId },
  FindParameters: {},
  FindTransactionByHash: { hash: Hash },
  FindBlockByHeight: { height: varuint },
  FindUpgradeById: { id: Hash },
});
export type SingularQuery = Infer<typeof SingularQueryCodec>;

export const IterableQueryCodec = enumOf('IterableQuery', {
  FindDomains: {},
  FindAccounts: {},
  FindAccountsInDomain: { domain: DomainId },
  FindAssetDefinitions: {},
  FindAssets: {},
  FindAssetsByAccount: { account: AccountId },
  FindHoldersOfDefinition: { definition: AssetDefinitionId },
  FindNfts: {},
  FindRoles: {},
  FindRolesByAccount: { account: AccountId },
  FindPermissionsByAccount: { account: AccountId },
  FindPeers: {},
  FindTransactions: {},
  FindTransactionsByAccount: { account: AccountId },
  FindBlocks: {},
  FindUpgrades: {},
});
export type IterableQuery = Infer<typeof IterableQueryCodec>;

export const QueryParamsCodec = struct('QueryParams', {
  /** A filter expression (docs/data-model.md "Queries") as JSON. */
  filter: option(jsonValue(16 * 1024)),
  /** `field:asc,other:desc`. */
  sort: option(string(512)),
  limit: option(varuint),
  offset: varuint,
  fetchSize: option(varuint),
});
export type QueryParams = Infer<typeof QueryParamsCodec>;

export const QueryRequestCodec = enumOf('QueryRequest', {
  Singular: { query: SingularQueryCodec },
  Start: { query: IterableQueryCodec, params: QueryParamsCodec },
  Continue: { cursor: string(256) },
});
export type QueryRequest = Infer<typeof QueryRequestCodec>;

export const QueryPayloadCodec = struct('QueryPayload', {
  chainId: string(CHAIN_ID_BYTES_MAX),
  authority: AccountId,
  creationTimeMs: varuint,
  request: QueryRequestCodec,
});
export type QueryPayload = Infer<typeof QueryPayloadCodec>;

export const SignedQueryCodec = struct('SignedQuery', {
  payload: QueryPayloadCodec,
  signature: SignatureBytes,
});
export type SignedQuery = Infer<typeof SignedQueryCodec>;

export const CommittedTransactionCodec = struct('CommittedTransaction', {
  hash: HashBytes,
  blockHeight: varuint,
  index: varuint,
  transaction: SignedTransactionCodec,
  result: TransactionResultCodec,
});
export type CommittedTransaction = Infer<typeof CommittedTransactionCodec>;

export const QueryOutputCodec = enumOf('QueryOutput', {
  Domain: { value: DomainCodec },
  Account: { value: AccountCodec },
  AssetDefinition: { value: AssetDefinitionCodec },
  Asset: { value: AssetCodec },
  Nft: { value: NftCodec },
  Role: { value: RoleCodec },
  Permission: { value: PermissionCodec },
  Peer: { value: PeerCodec },
  Parameters: { value: ParametersCodec },
  Transaction: { value: CommittedTransactionCodec },
  Block: { value: BlockCodec },
  Upgrade: { value: UpgradeRecordCodec },
});
export type QueryOutput = Infer<typeof QueryOutputCodec>;

export const QueryResponseCodec = enumOf('QueryResponse', {
  Singular: { output: QueryOutputCodec },
  Iterable: { batch: seq(QueryOutputCodec), remainingItems: varuint, cursor: option(string(256)) },
});
export type QueryResponse = Infer<typeof QueryResponseCodec>;
