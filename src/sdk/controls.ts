// Transfer control reads over the node's routes (app-families.md §10; src/controls/routes.ts), decoded
// with the node's own view codecs so the SDK and the node cannot drift. Unknown account or definition:
// a ToranaApiError with code `not_found`. Ids may be aliases.

import type { Codec } from '../codec/codec.js';
import { AssetTransferControlView, DefinitionTransferControlView } from '../controls/views.js';
import { ToranaTransportError } from './errors.js';
import type { Http } from './http.js';

export type AssetTransferControl = ReturnType<typeof AssetTransferControlView.fromJson>;
export type DefinitionTransferControl = ReturnType<typeof DefinitionTransferControlView.fromJson>;

async function post<T>(http: Http, path: string, body: unknown, view: Codec<T>): Promise<T> {
  const json = await http.json({
    method: 'POST',
    path,
    body: JSON.stringify(body),
    contentType: 'application/json',
  });
  try {
    return view.fromJson(json, '');
  } catch (e) {
    throw new ToranaTransportError(`${path}: the answer does not match its schema (${(e as Error).message})`);
  }
}

/** Freeze and blacklist flags, caps and usage of `account` for `definition` (all clear without rules). */
export function assetTransferControl(client: { http: Http }, account: string, definition: string) {
  return post(
    client.http,
    '/v1/controls/asset-transfer/get',
    { account_id: account, asset_definition_id: definition },
    AssetTransferControlView,
  );
}

/** The definition-wide rules: freeze, blacklist, allow and deny lists, caps. */
export function definitionTransferControl(client: { http: Http }, definition: string) {
  return post(
    client.http,
    '/v1/controls/asset-definition/get',
    { asset_definition_id: definition },
    DefinitionTransferControlView,
  );
}
