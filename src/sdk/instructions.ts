// One typed builder per instruction of the data model (src/model/instructions.ts). Amounts accept a
// decimal string ("12.50"), a bigint (scale 0) or a Numeric; metadata a plain object or a Map.

import type { Json } from '../codec/codec.js';
import type { Mintable, UpgradeManifest } from '../model/entities.js';
import { assetId } from '../model/ids.js';
import type { Instruction, MetadataTarget } from '../model/instructions.js';
import type { Parameters } from '../model/parameters.js';
import type { Permission } from '../model/permissions.js';
import { moduleInstructions } from '../modules/registry.js';
import { fromHex } from '../util/hex.js';
import { type AmountLike, type MetadataLike, toAmount, toMetadata } from './amounts.js';

export { type AmountLike, type MetadataLike, toAmount, toMetadata } from './amounts.js';

/** A proof of possession from its hex text (96 bytes). */
function popFromHex(text: string): Uint8Array {
  const pop = fromHex(text, 96);
  if (pop === undefined) throw new RangeError('pop: expected 192 hex digits (96 bytes)');
  return pop;
}

const mintables = { infinitely: 'Infinitely', once: 'Once', not: 'Not' } as const;

export const instructions = {
  registerDomain: (id: string, metadata?: MetadataLike): Instruction => ({
    kind: 'RegisterDomain',
    id,
    metadata: toMetadata(metadata),
  }),
  registerAccount: (id: string, metadata?: MetadataLike): Instruction => ({
    kind: 'RegisterAccount',
    id,
    metadata: toMetadata(metadata),
  }),
  registerAssetDefinition: (
    id: string,
    opts: { scale?: number; mintable?: keyof typeof mintables; metadata?: MetadataLike } = {},
  ): Instruction => ({
    kind: 'RegisterAssetDefinition',
    id,
    scale: opts.scale ?? 0,
    mintable: { kind: mintables[opts.mintable ?? 'infinitely'] } as Mintable,
    metadata: toMetadata(opts.metadata),
  }),
  registerNft: (id: string, content?: MetadataLike): Instruction => ({
    kind: 'RegisterNft',
    id,
    content: toMetadata(content),
  }),
  registerRole: (id: string, permissions: Permission[] = []): Instruction => ({
    kind: 'RegisterRole',
    id,
    permissions,
  }),
  /**
   * Registers a validator: `blsKey` is its BLS12-381 public key text ('ea0130…'), `pop` the key's proof
   * of possession (96 bytes, or their hex), as `torana keys` prints it.
   */
  registerPeer: (peer: string, address: string, blsKey: string, pop: Uint8Array | string): Instruction => ({
    kind: 'RegisterPeer',
    peer,
    address,
    blsKey,
    pop: typeof pop === 'string' ? popFromHex(pop) : pop,
  }),
  unregisterDomain: (id: string): Instruction => ({ kind: 'UnregisterDomain', id }),
  unregisterAccount: (id: string): Instruction => ({ kind: 'UnregisterAccount', id }),
  unregisterAssetDefinition: (id: string): Instruction => ({ kind: 'UnregisterAssetDefinition', id }),
  unregisterNft: (id: string): Instruction => ({ kind: 'UnregisterNft', id }),
  unregisterRole: (id: string): Instruction => ({ kind: 'UnregisterRole', id }),
  unregisterPeer: (peer: string): Instruction => ({ kind: 'UnregisterPeer', peer }),
  /** Mints `amount` of `definition` (e.g. 'rose#wonderland') into `account`. */
  mintAsset: (definition: string, account: string, amount: AmountLike): Instruction => ({
    kind: 'MintAsset',
    asset: assetId(definition, account),
    amount: toAmount(amount),
  }),
  burnAsset: (definition: string, account: string, amount: AmountLike): Instruction => ({
    kind: 'BurnAsset',
    asset: assetId(definition, account),
    amount: toAmount(amount),
  }),
  transferAsset: (definition: string, from: string, to: string, amount: AmountLike): Instruction => ({
    kind: 'TransferAsset',
    source: assetId(definition, from),
    destination: to,
    amount: toAmount(amount),
  }),
  transferNft: (id: string, from: string, to: string): Instruction => ({
    kind: 'TransferNft',
    id,
    source: from,
    destination: to,
  }),
  transferDomain: (id: string, from: string, to: string): Instruction => ({
    kind: 'TransferDomain',
    id,
    source: from,
    destination: to,
  }),
  setKeyValue: (target: MetadataTarget, key: string, value: Json): Instruction => ({
    kind: 'SetKeyValue',
    target,
    key,
    value,
  }),
  removeKeyValue: (target: MetadataTarget, key: string): Instruction => ({
    kind: 'RemoveKeyValue',
    target,
    key,
  }),
  grantPermission: (account: string, name: string, payload: Json = null): Instruction => ({
    kind: 'GrantPermission',
    account,
    permission: { name, payload },
  }),
  revokePermission: (account: string, name: string, payload: Json = null): Instruction => ({
    kind: 'RevokePermission',
    account,
    permission: { name, payload },
  }),
  grantRole: (account: string, role: string): Instruction => ({ kind: 'GrantRole', account, role }),
  revokeRole: (account: string, role: string): Instruction => ({ kind: 'RevokeRole', account, role }),
  setParameter: (name: Exclude<keyof Parameters, 'custom'>, value: number): Instruction => {
    const kinds = {
      blockMaxTransactions: 'BlockMaxTransactions',
      blockTimeMs: 'BlockTimeMs',
      commitTimeMs: 'CommitTimeMs',
      maxClockDriftMs: 'MaxClockDriftMs',
      transactionMaxInstructions: 'TransactionMaxInstructions',
      transactionMaxBytes: 'TransactionMaxBytes',
      transactionMaxWeight: 'TransactionMaxWeight',
      blockMaxWeight: 'BlockMaxWeight',
    } as const;
    return { kind: 'SetParameter', parameter: { kind: kinds[name], value } };
  },
  /** The smallest note ShieldAsset accepts, in base units of the native asset (unset: one whole unit). */
  setShieldedNoteMinUnits: (value: number): Instruction => ({
    kind: 'SetParameter',
    parameter: { kind: 'ShieldedNoteMinUnits', value },
  }),
  setCustomParameter: (id: string, payload: Json): Instruction => ({
    kind: 'SetParameter',
    parameter: { kind: 'Custom', id, payload },
  }),
  log: (message: string, level: 'Trace' | 'Debug' | 'Info' | 'Warn' | 'Error' = 'Info'): Instruction => ({
    kind: 'Log',
    level: { kind: level },
    message,
  }),
  proposeRuntimeUpgrade: (manifest: UpgradeManifest): Instruction => ({
    kind: 'ProposeRuntimeUpgrade',
    manifest,
  }),
  activateRuntimeUpgrade: (id: string): Instruction => ({ kind: 'ActivateRuntimeUpgrade', id }),
  cancelRuntimeUpgrade: (id: string): Instruction => ({ kind: 'CancelRuntimeUpgrade', id }),
  /** Moves `amount` of the native asset into the shielded pool as a note for `ownerHash` (64 hex digits). */
  shieldAsset: (amount: AmountLike, ownerHash: string): Instruction => ({
    kind: 'ShieldAsset',
    amount: toAmount(amount),
    ownerHash,
  }),
  ...moduleInstructions,
} as const;

/** Every instruction kind has a builder (checked by the type system and by a test). */
export type InstructionBuilders = typeof instructions;
