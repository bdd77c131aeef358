// Events (docs/data-model.md §Events): pipeline events about transactions and blocks, and data events
// describing each state change of a committed transaction. Data event tags are positions in model/tags.ts
// DATA_EVENT_TAGS; the core's variants are declared here, a module's in its `wire.ts` (augmenting
// `DataEventVariants`, docs/design/modules.md "Wire declarations").

import type { Infer } from '../codec/codec.js';
import { enumOf, option, struct } from '../codec/compound.js';
import { type OpenEnumValue, openEnum } from '../codec/open-enum.js';
import { jsonValue, string, varuint } from '../codec/primitives.js';
import { AccountId, AssetDefinitionId, AssetId, DomainId, NftId, PeerId, RoleId } from './ids.js';
import { LogLevelCodec, MetadataTargetCodec } from './instructions.js';
import { Hash, HashBytes } from './keys.js';
import { Name } from './names.js';
import { NumericCodec } from './numeric.js';
import { ParameterCodec } from './parameters.js';
import { PermissionCodec } from './permissions.js';
import { RejectionCodec } from './rejections.js';
import { DATA_EVENT_TAGS, type DataEventTag, type SameNames } from './tags.js';

export const TransactionStatusCodec = enumOf('TransactionStatus', {
  Queued: {},
  Approved: {},
  Committed: {},
  Rejected: { reason: RejectionCodec },
  Expired: {},
});
export type TransactionStatus = Infer<typeof TransactionStatusCodec>;

export const BlockStatusCodec = enumOf('BlockStatus', {
  Created: {},
  Approved: {},
  Rejected: {},
  Committed: {},
  Applied: {},
});
export type BlockStatus = Infer<typeof BlockStatusCodec>;

const CORE_DATA_EVENT_VARIANTS = {
  DomainCreated: { id: DomainId, owner: AccountId },
  DomainDeleted: { id: DomainId },
  DomainOwnerChanged: { id: DomainId, owner: AccountId },
  AccountCreated: { id: AccountId },
  AccountDeleted: { id: AccountId },
  AssetDefinitionCreated: { id: AssetDefinitionId, owner: AccountId },
  AssetDefinitionDeleted: { id: AssetDefinitionId },
  AssetDefinitionTotalChanged: { id: AssetDefinitionId, total: NumericCodec },
  AssetAdded: { id: AssetId, amount: NumericCodec },
  AssetRemoved: { id: AssetId, amount: NumericCodec },
  NftCreated: { id: NftId, owner: AccountId },
  NftDeleted: { id: NftId },
  NftOwnerChanged: { id: NftId, owner: AccountId },
  RoleCreated: { id: RoleId },
  RoleDeleted: { id: RoleId },
  PermissionGranted: { account: AccountId, permission: PermissionCodec },
  PermissionRevoked: { account: AccountId, permission: PermissionCodec },
  RoleGranted: { account: AccountId, role: RoleId },
  RoleRevoked: { account: AccountId, role: RoleId },
  PeerAdded: { peer: PeerId },
  PeerRemoved: { peer: PeerId },
  MetadataSet: { target: MetadataTargetCodec, key: Name, value: jsonValue(16 * 1024) },
  MetadataRemoved: { target: MetadataTargetCodec, key: Name },
  ParameterChanged: { parameter: ParameterCodec },
  Logged: { level: LogLevelCodec, message: string(4096) },
  UpgradeProposed: { id: Hash },
  UpgradeActivated: { id: Hash, height: varuint },
  UpgradeCanceled: { id: Hash },
};

/** Every data event variant of the build: the core's, and each module's by augmentation in its `wire.ts`. */
export interface DataEventVariants extends CoreDataEventVariants {}
type CoreDataEventVariants = typeof CORE_DATA_EVENT_VARIANTS;

export type DataEvent = OpenEnumValue<DataEventVariants>;

/** The data event codec: the core's variants and the installed modules', in tag order. */
export const DataEventCodec = openEnum<DataEvent>(
  'DataEvent',
  DATA_EVENT_TAGS,
  CORE_DATA_EVENT_VARIANTS,
  "import src/modules/registry.ts to declare the modules' events",
);

/** Compile-time check: the tag table and the declared variants name the same kinds. */
export const DATA_EVENT_VARIANTS_MATCH_TAGS: SameNames<DataEventTag, DataEvent['kind']> = true;

export const EventCodec = enumOf('Event', {
  Transaction: { hash: HashBytes, status: TransactionStatusCodec, blockHeight: option(varuint) },
  Block: { height: varuint, hash: HashBytes, status: BlockStatusCodec },
  Data: { blockHeight: varuint, transactionHash: HashBytes, data: DataEventCodec },
});
export type Event = Infer<typeof EventCodec>;

/** An event as delivered to subscribers: a node-assigned, strictly increasing id plus the event. */
export const EventEnvelopeCodec = struct('EventEnvelope', { id: varuint, event: EventCodec });
export type EventEnvelope = Infer<typeof EventEnvelopeCodec>;
