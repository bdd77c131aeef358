// The explorer module's entries in the shared documentation pages (src/modules/docs.ts renders them into
// docs/app-api.md): its route family and the route parameters and filters that take names in place of ids.

import type { ModuleDocSections } from '../descriptor.js';

export const EXPLORER_DOC_SECTIONS: ModuleDocSections = {
  'app-api-families': [
    '| `explorer` | `/v1/explorer/*` (lists, details, latest-N views and SSE streams of the committed chain; docs/explorer.md) | — |',
  ],
  'app-api-id-names': [
    '| `/v1/explorer/accounts/{id}` (+ `/qr`) | `id` (account) |',
    '| `/v1/explorer/asset-definitions/{id}` (+ `/snapshot`, `/econometrics`) | `id` (definition) |',
    '| `/v1/explorer/assets/{id}` | `id` (asset; either part a name) |',
    '| `/v1/explorer/assets` | `owned_by` (account), `definition` (definition), `asset_id` (asset) |',
    '| `/v1/explorer/transactions`, `…/stream` | `authority` (account), `asset_id` (asset, or a definition: any of its balances) |',
    '| `/v1/explorer/instructions`, `…/stream` | `authority`, `account` (account), `asset_id` (asset or definition) |',
    '| CLI `torana explorer` | arguments and filters (`account`, `qr`, `definition`, `snapshot`, `econometrics`, `asset`, `--authority`, `--account`, `--asset`, `--owned-by`, `--definition`) |',
  ],
};
