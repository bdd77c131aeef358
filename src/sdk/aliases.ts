// Alias resolution over the node's routes (src/aliases/routes.ts), decoded with the
// node's own view codecs so the SDK and the node cannot drift. A 404 (unbound) is a ToranaApiError with
// code `not_found`.

import { AccountAliasListView, AccountAliasView, AliasIndexView, AssetAliasView } from '../aliases/views.js';
import { postJson } from './answers.js';
import type { Http } from './http.js';

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
