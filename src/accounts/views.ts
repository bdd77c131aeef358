// Answer types of the application read routes (docs/app-api.md). Simple lists are `{items, total}`. Items
// are the entities' JSON forms plus a few derived fields that clients filter and sort on (`domain`, `name`,
// `definition`).

import type { AnyCodec, Codec, Infer } from '../codec/codec.js';
import { seq, struct } from '../codec/compound.js';
import { u8, varuint } from '../codec/primitives.js';
import { TransactionResultCodec } from '../model/block.js';
import { MintableCodec } from '../model/entities.js';
import { AccountId, AssetDefinitionId, AssetId, DomainId, NftId, RoleId } from '../model/ids.js';
import { InstructionCodec } from '../model/instructions.js';
import { Hash, PublicKeyText } from '../model/keys.js';
import { MetadataCodec } from '../model/metadata.js';
import { Name } from '../model/names.js';
import { NumericCodec } from '../model/numeric.js';
import { PermissionCodec } from '../model/permissions.js';

/** `{items, total}`: one page of a simple list and the number of items that passed the filter. */
export function listView<T>(name: string, item: Codec<T>) {
  return struct(name, { items: seq(item), total: varuint });
}

export const DomainItemView = struct('AppDomain', {
  id: DomainId,
  ownedBy: AccountId,
  metadata: MetadataCodec,
});
export type DomainItem = Infer<typeof DomainItemView>;

export const AccountItemView = struct('AppAccount', {
  id: AccountId,
  /** The domain part of the id, so lists can be filtered by domain. */
  domain: DomainId,
  signatory: PublicKeyText,
  metadata: MetadataCodec,
});
export type AccountItem = Infer<typeof AccountItemView>;

export const AssetDefinitionItemView = struct('AppAssetDefinition', {
  id: AssetDefinitionId,
  /** The part of the id before '#'. */
  name: Name,
  domain: DomainId,
  totalQuantity: NumericCodec,
  scale: u8,
  mintable: MintableCodec,
  ownedBy: AccountId,
  metadata: MetadataCodec,
});
export type AssetDefinitionItem = Infer<typeof AssetDefinitionItemView>;

/** One balance: an account's holding of one definition (account assets, definition holders). */
export const AssetItemView = struct('AppAsset', {
  id: AssetId,
  definition: AssetDefinitionId,
  account: AccountId,
  value: NumericCodec,
});
export type AssetItem = Infer<typeof AssetItemView>;

export const NftItemView = struct('AppNft', {
  id: NftId,
  name: Name,
  domain: DomainId,
  ownedBy: AccountId,
  content: MetadataCodec,
});
export type NftItem = Infer<typeof NftItemView>;

export const AccountDetailView = struct('AppAccountDetail', {
  id: AccountId,
  domain: DomainId,
  signatory: PublicKeyText,
  metadata: MetadataCodec,
  /** The first ACCOUNT_DETAIL_ITEMS_MAX holdings in id order; `/assets` pages through all of them. */
  assets: seq(AssetItemView),
  assetsTotal: varuint,
  /** The first ACCOUNT_DETAIL_ITEMS_MAX direct grants; `/permissions` pages through all of them. */
  permissions: seq(PermissionCodec),
  permissionsTotal: varuint,
  roles: seq(RoleId),
});
export type AccountDetail = Infer<typeof AccountDetailView>;

/** A committed transaction in an account's history (newest first). */
export const AccountTransactionView = struct('AppAccountTransaction', {
  hash: Hash,
  blockHeight: varuint,
  index: varuint,
  authority: AccountId,
  creationTimeMs: varuint,
  result: TransactionResultCodec,
  instructions: seq(InstructionCodec),
});
export type AccountTransaction = Infer<typeof AccountTransactionView>;

export const DomainListView = listView('AppDomainList', DomainItemView);
export const AccountListView = listView('AppAccountList', AccountItemView);
export const AssetDefinitionListView = listView('AppAssetDefinitionList', AssetDefinitionItemView);
export const AssetListView = listView('AppAssetList', AssetItemView);
export const NftListView = listView('AppNftList', NftItemView);
export const PermissionListView = listView('AppPermissionList', PermissionCodec);
export const AccountTransactionListView = listView('AppAccountTransactionList', AccountTransactionView);

/** Every named view of this file, for registries that want them up front. */
export const APP_VIEWS: readonly AnyCodec[] = [
  DomainListView,
  AccountListView,
  AssetDefinitionListView,
  AssetListView,
  NftListView,
  PermissionListView,
  AccountTransactionListView,
  AccountDetailView,
];
