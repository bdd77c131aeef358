// The aliases module's SDK functions (docs/data-model.md §Aliases): the builders of the alias
// instructions (spread into the SDK's `instructions`) and alias resolution over the node's routes
// (routes.ts), decoded with the node's own view codecs so the SDK and the node cannot drift. A 404
// (unbound) is a ToranaApiError with code `not_found`. The SDK's public surface (src/sdk/index.ts)
// re-exports these names. Account aliases are `<label>@<domain>`, asset aliases `<label>`; the ledger
// checks the literal and the permissions, the SDK does not repeat its rules.

import type { Instruction } from '../../model/instructions.js';
import { postJson } from '../../sdk/answers.js';
import type { Http } from '../../sdk/http.js';
import { AccountAliasListView, AccountAliasView, AliasIndexView, AssetAliasView } from './views.js';

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

export type AccountAliasResolution = ReturnType<typeof AccountAliasView.fromJson>;
export type AccountAliasIndexResolution = ReturnType<typeof AliasIndexView.fromJson>;
export type AccountAliasList = ReturnType<typeof AccountAliasListView.fromJson>;
export type AssetAliasResolution = ReturnType<typeof AssetAliasView.fromJson>;

/** Account alias (`label@domain`) → account id, index, primary flag. */
export function resolveAccountAlias(client: { http: Http }, alias: string) {
  return postJson(client.http, '/v1/aliases/resolve', { alias }, AccountAliasView);
}

/** Numeric alias index → alias and account. */
export function resolveAliasIndex(client: { http: Http }, index: number) {
  return postJson(client.http, '/v1/aliases/resolve_index', { index }, AliasIndexView);
}

/** Every alias bound to an account (id or alias), optionally those of one domain; paged. */
export function aliasesOfAccount(
  client: { http: Http },
  account: string,
  opts: { domain?: string; limit?: number; offset?: number } = {},
) {
  return postJson(
    client.http,
    '/v1/aliases/by_account',
    { account_id: account, ...opts },
    AccountAliasListView,
  );
}

/** Asset alias → definition id, name and lease status at the committed tip. */
export function resolveAssetAlias(client: { http: Http }, alias: string) {
  return postJson(client.http, '/v1/assets/aliases/resolve', { alias }, AssetAliasView);
}

/** The module's SDK functions by name (its descriptor lists them; src/sdk/index.ts exports each). */
export const ALIAS_SDK = {
  resolveAccountAlias,
  resolveAliasIndex,
  aliasesOfAccount,
  resolveAssetAlias,
} as const;
