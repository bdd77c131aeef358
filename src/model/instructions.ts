// Instructions: the only way the world state changes (docs/data-model.md §Instructions).
// Variant tags are positions in model/tags.ts INSTRUCTION_TAGS and are never reused. The core's variants
// are declared here; a ledger module declares its own in its `wire.ts` (docs/design/modules.md "Wire
// declarations"), adding them to `InstructionVariants` by interface augmentation, so that `Instruction`
// is the precise union of every variant of the build.

import type { Infer } from '../codec/codec.js';
import { enumOf, seq } from '../codec/compound.js';
import { type OpenEnumValue, openEnum } from '../codec/open-enum.js';
import { jsonValue, string, u8 } from '../codec/primitives.js';
import { MintableCodec, UpgradeManifestCodec } from './entities.js';
import { AccountId, AssetDefinitionId, AssetId, DomainId, NftId, PeerId, RoleId } from './ids.js';
import { BlsPopBytes, Hash, PublicKeyText } from './keys.js';
import { MetadataCodec } from './metadata.js';
import { Name } from './names.js';
import { NumericCodec } from './numeric.js';
import { ParameterCodec } from './parameters.js';
import { PermissionCodec } from './permissions.js';
import { Field } from './proofs.js';
import { INSTRUCTION_TAGS, type InstructionTag, type SameNames } from './tags.js';

/** The object a key-value instruction writes to. */
export const MetadataTargetCodec = enumOf('MetadataTarget', {
  Domain: { id: DomainId },
  Account: { id: AccountId },
  AssetDefinition: { id: AssetDefinitionId },
  Nft: { id: NftId },
});
export type MetadataTarget = Infer<typeof MetadataTargetCodec>;

export const LogLevelCodec = enumOf('LogLevel', { Trace: {}, Debug: {}, Info: {}, Warn: {}, Error: {} });

const CORE_INSTRUCTION_VARIANTS = {
  RegisterDomain: { id: DomainId, metadata: MetadataCodec },
  RegisterAccount: { id: AccountId, metadata: MetadataCodec },
  RegisterAssetDefinition: {
    id: AssetDefinitionId,
    scale: u8,
    mintable: MintableCodec,
    metadata: MetadataCodec,
  },
  RegisterNft: { id: NftId, content: MetadataCodec },
  RegisterRole: { id: RoleId, permissions: seq(PermissionCodec, 256) },
  // A validator: its BLS12-381 consensus key and the key's proof of possession (rogue-key defence).
  RegisterPeer: { peer: PeerId, address: string(256), blsKey: PublicKeyText, pop: BlsPopBytes },
  UnregisterDomain: { id: DomainId },
  UnregisterAccount: { id: AccountId },
  UnregisterAssetDefinition: { id: AssetDefinitionId },
  UnregisterNft: { id: NftId },
  UnregisterRole: { id: RoleId },
  UnregisterPeer: { peer: PeerId },
  MintAsset: { asset: AssetId, amount: NumericCodec },
  BurnAsset: { asset: AssetId, amount: NumericCodec },
  TransferAsset: { source: AssetId, destination: AccountId, amount: NumericCodec },
  TransferNft: { id: NftId, source: AccountId, destination: AccountId },
  TransferDomain: { id: DomainId, source: AccountId, destination: AccountId },
  SetKeyValue: { target: MetadataTargetCodec, key: Name, value: jsonValue(16 * 1024) },
  RemoveKeyValue: { target: MetadataTargetCodec, key: Name },
  GrantPermission: { account: AccountId, permission: PermissionCodec },
  RevokePermission: { account: AccountId, permission: PermissionCodec },
  GrantRole: { account: AccountId, role: RoleId },
  RevokeRole: { account: AccountId, role: RoleId },
  SetParameter: { parameter: ParameterCodec },
  Log: { level: LogLevelCodec, message: string(4096) },
  ProposeRuntimeUpgrade: { manifest: UpgradeManifestCodec },
  ActivateRuntimeUpgrade: { id: Hash },
  CancelRuntimeUpgrade: { id: Hash },
  // Moves `amount` of the native asset from the authority into the shielded pool as a note for ownerHash.
  ShieldAsset: { amount: NumericCodec, ownerHash: Field },
};

/**
 * Every instruction variant of the build, by kind: the core's, and each module's by augmentation in its
 * `wire.ts` (`declare module '…/model/instructions.js' { interface InstructionVariants { … } }`).
 */
export interface InstructionVariants extends CoreInstructionVariants {}
type CoreInstructionVariants = typeof CORE_INSTRUCTION_VARIANTS;

export type Instruction = OpenEnumValue<InstructionVariants>;
export type InstructionKind = Instruction['kind'];

/** The instruction codec: the core's variants and the installed modules', in tag order. */
export const InstructionCodec = openEnum<Instruction>(
  'Instruction',
  INSTRUCTION_TAGS,
  CORE_INSTRUCTION_VARIANTS,
  "import src/modules/registry.ts to declare the modules' instructions",
);

/** Every instruction kind at its variant tag (its position), for indexes keyed by kind. */
export const INSTRUCTION_KINDS: readonly InstructionKind[] = INSTRUCTION_TAGS;

/** Compile-time check: the tag table and the declared variants name the same kinds. */
export const INSTRUCTION_VARIANTS_MATCH_TAGS: SameNames<InstructionTag, InstructionKind> = true;
