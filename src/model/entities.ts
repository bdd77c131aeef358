// World-state entities as they are stored and returned by queries (docs/data-model.md §Entities).

import type { Infer } from '../codec/codec.js';
import { enumOf, option, seq, struct } from '../codec/compound.js';
import { string, u8, varuint } from '../codec/primitives.js';
import { AccountId, AssetDefinitionId, AssetId, DomainId, NftId, PeerId, RoleId } from './ids.js';
import { Hash, PublicKeyText } from './keys.js';
import { MetadataCodec } from './metadata.js';
import { NumericCodec } from './numeric.js';
import { PermissionCodec } from './permissions.js';

/** Whether more can be minted: without limit, once (then it becomes Not), or not at all. */
export const MintableCodec = enumOf('Mintable', { Infinitely: {}, Once: {}, Not: {} });
export type Mintable = Infer<typeof MintableCodec>;

export const DomainCodec = struct('Domain', { id: DomainId, ownedBy: AccountId, metadata: MetadataCodec });
export type Domain = Infer<typeof DomainCodec>;

export const AccountCodec = struct('Account', { id: AccountId, metadata: MetadataCodec });
export type Account = Infer<typeof AccountCodec>;

export const AssetDefinitionCodec = struct('AssetDefinition', {
  id: AssetDefinitionId,
  scale: u8,
  mintable: MintableCodec,
  totalQuantity: NumericCodec,
  ownedBy: AccountId,
  metadata: MetadataCodec,
});
export type AssetDefinition = Infer<typeof AssetDefinitionCodec>;

export const AssetCodec = struct('Asset', { id: AssetId, value: NumericCodec });
export type Asset = Infer<typeof AssetCodec>;

export const NftCodec = struct('Nft', { id: NftId, content: MetadataCodec, ownedBy: AccountId });
export type Nft = Infer<typeof NftCodec>;

export const RoleCodec = struct('Role', { id: RoleId, permissions: seq(PermissionCodec) });
export type Role = Infer<typeof RoleCodec>;

/**
 * A registered peer and its consensus-key lifecycle (docs/data-model.md §Peers). Rows are never deleted:
 * unregistering sets `disabledAt`, so the history stays in the state. `activeFrom` is always
 * `registeredAt + 1`; genesis validators are registered at height 0, so they are active from block 1.
 */
export const PeerCodec = struct('Peer', {
  id: PeerId,
  address: string(256),
  blsKey: PublicKeyText,
  registeredAt: varuint,
  activeFrom: varuint,
  disabledAt: option(varuint),
});
export type Peer = Infer<typeof PeerCodec>;

// ---- runtime upgrades (docs/data-model.md §Runtime upgrades) ------------------------------------

export const UpgradeManifestCodec = struct('UpgradeManifest', {
  name: string(128),
  description: string(4096),
  abiVersion: varuint,
  abiHash: Hash,
  startHeight: varuint,
  endHeight: option(varuint),
});
export type UpgradeManifest = Infer<typeof UpgradeManifestCodec>;

export const UpgradeStatusCodec = enumOf('UpgradeStatus', {
  Proposed: {},
  ActivatedAt: { height: varuint },
  Canceled: {},
});

export const UpgradeRecordCodec = struct('UpgradeRecord', {
  id: Hash,
  manifest: UpgradeManifestCodec,
  status: UpgradeStatusCodec,
  proposer: AccountId,
  createdHeight: varuint,
});
export type UpgradeRecord = Infer<typeof UpgradeRecordCodec>;
