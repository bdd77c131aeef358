// Transfer control reads over the node's routes (src/controls/routes.ts), decoded
// with the node's own view codecs so the SDK and the node cannot drift. Unknown account or definition:
// a ToranaApiError with code `not_found`. Ids may be aliases.

import { AssetTransferControlView, DefinitionTransferControlView } from '../controls/views.js';
import { postJson } from './answers.js';
import type { Http } from './http.js';

export type AssetTransferControl = ReturnType<typeof AssetTransferControlView.fromJson>;
export type DefinitionTransferControl = ReturnType<typeof DefinitionTransferControlView.fromJson>;

/** Freeze and blacklist flags, caps and usage of `account` for `definition` (all clear without rules). */
export function assetTransferControl(client: { http: Http }, account: string, definition: string) {
  return postJson(
    client.http,
    '/v1/controls/asset-transfer/get',
    { account_id: account, asset_definition_id: definition },
    AssetTransferControlView,
  );
}

/** The definition-wide rules: freeze, blacklist, allow and deny lists, caps. */
export function definitionTransferControl(client: { http: Http }, definition: string) {
  return postJson(
    client.http,
    '/v1/controls/asset-definition/get',
    { asset_definition_id: definition },
    DefinitionTransferControlView,
  );
}
