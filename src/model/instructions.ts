// Instructions: the only way the world state changes (docs/data-model.md §Instructions).
// Variant tags are positions in model/tags.ts INSTRUCTION_TAGS and are never reused. The core's variants
// are declared here; a ledger module declares its own in its `wire.ts` (docs/design/modules.md "Wire
// declarations"), adding them to `InstructionVariants` by interface augmentation, so that `Instruction`
// is the precise union of every variant of the build.

import type { Infer } from '../codec/codec.js';
import { enumOf, option, seq } from '../codec/compound.js';
import { type OpenEnumValue, openEnum } from '../codec/open-enum.js';
import { bool, bytes, fixedBytes, jsonValue, string, u8, u16, u32, u64 } from '../codec/primitives.js';
import {
  CallId,
  Field,
  NoteSpendCodec,
  PrivacyModeCodec,
  RelayId,
  RelayManifestCodec,
  ROSTER_COMMITMENTS_MAX,
  RoomPolicyCodec,
  RosterProofCodec,
  X25519_KEY_BYTES,
} from './conference.js';
import { MintableCodec, UpgradeManifestCodec } from './entities.js';
import { AccountId, AssetDefinitionId, AssetId, DomainId, NftId, PeerId, RoleId } from './ids.js';
import { BlsPopBytes, Hash, PublicKeyText } from './keys.js';
import { MetadataCodec } from './metadata.js';
import { Name } from './names.js';
import { NumericCodec } from './numeric.js';
import { ParameterCodec } from './parameters.js';
import { PermissionCodec } from './permissions.js';
import { INSTRUCTION_TAGS, type InstructionTag, type SameNames } from './tags.js';

/** The object a key-value instruction writes to. */
export const MetadataTargetCodec = enumOf('MetadataTarget', {
  Domain: { id: DomainId },
  Account: { id: AccountId },
  AssetDefinition: { id: AssetDefinitionId },
  Nft: { id: NftId },
});
export type MetadataTarget = Infer<typeof MetadataTargetCodec>;

/** The largest encrypted signalling answer a JoinConference may carry. */
export const ANSWER_BYTES_MAX = 16 * 1024;

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
  // Conference calls and relays (docs/conference.md). Privacy artefacts (rosterCommitments, private, fee)
  // are for ZkRosterV1 calls only; `participant` for transparent ones only.
  CreateConference: {
    call: CallId,
    policy: RoomPolicyCodec,
    privacy: PrivacyModeCodec,
    title: string(256),
    description: string(4096),
    scheduledStartMs: u64,
    scheduledEndMs: option(u64),
    maxParticipants: u32,
    gasRatePerMinute: NumericCodec,
    billingAccount: AccountId,
    metadata: MetadataCodec,
    manifest: option(RelayManifestCodec),
    rosterCommitments: seq(Field, ROSTER_COMMITMENTS_MAX),
    fee: option(NoteSpendCodec),
  },
  JoinConference: {
    call: CallId,
    participant: option(AccountId),
    answer: option(bytes(ANSWER_BYTES_MAX)),
    private: option(RosterProofCodec),
    fee: option(NoteSpendCodec),
  },
  LeaveConference: { call: CallId, participant: option(AccountId), private: option(RosterProofCodec) },
  RecordConferenceUsage: {
    call: CallId,
    participant: option(AccountId),
    segment: u32,
    durationMs: u64,
    billedGas: NumericCodec,
    private: option(RosterProofCodec),
  },
  EndConference: { call: CallId },
  SetConferenceRelayManifest: { call: CallId, manifest: RelayManifestCodec },
  RegisterConferenceRelay: {
    relay: RelayId,
    publicKey: fixedBytes(X25519_KEY_BYTES),
    endpoint: string(256),
    region: string(64),
  },
  ReportConferenceRelayHealth: { relay: RelayId, available: bool, latencyMs: u32, lossPermille: u16 },
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
