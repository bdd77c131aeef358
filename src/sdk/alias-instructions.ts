// Builders of the alias instructions (docs/data-model.md §Aliases), spread into `instructions`
// (instructions.ts). Account aliases are `<label>@<domain>`, asset aliases `<label>`; the ledger checks
// the literal and the permissions, the SDK does not repeat its rules.

import type { Instruction } from '../model/instructions.js';

export type MillisLike = number | bigint;

export interface AssetAliasLease {
  /** Block time (ms since the epoch) at which the lease ends; then the grace period runs. */
  expiresAtMs: MillisLike;
  /** Default 0: expired as soon as the lease ends. */
  graceMs?: MillisLike;
}

export const aliasInstructions = {
  registerAccountAlias: (alias: string, account: string): Instruction => ({
    kind: 'RegisterAccountAlias',
    alias,
    account,
  }),
  transferAccountAlias: (alias: string, destination: string): Instruction => ({
    kind: 'TransferAccountAlias',
    alias,
    destination,
  }),
  removeAccountAlias: (alias: string): Instruction => ({ kind: 'RemoveAccountAlias', alias }),
  setPrimaryAccountAlias: (alias: string): Instruction => ({ kind: 'SetPrimaryAccountAlias', alias }),
  /** Without `lease` the alias is permanent. */
  setAssetAlias: (alias: string, definition: string, lease?: AssetAliasLease): Instruction => ({
    kind: 'SetAssetAlias',
    alias,
    definition,
    ...(lease === undefined
      ? {}
      : { lease: { expiresAtMs: BigInt(lease.expiresAtMs), graceMs: BigInt(lease.graceMs ?? 0) } }),
  }),
  renewAssetAlias: (alias: string, expiresAtMs: MillisLike): Instruction => ({
    kind: 'RenewAssetAlias',
    alias,
    expiresAtMs: BigInt(expiresAtMs),
  }),
  removeAssetAlias: (alias: string): Instruction => ({ kind: 'RemoveAssetAlias', alias }),
} as const;
