// The transaction history module's entries in the shared documentation pages (src/modules/docs.ts renders
// them into docs/app-api.md and docs/configuration.md): its route family, the parameters that take names
// in place of ids and its configuration section.

import { renderModuleConfigDocs } from '../../config/docs.js';
import type { ModuleDocSections } from '../descriptor.js';
import { historyConfig } from './config.js';

export const HISTORY_DOC_SECTIONS: ModuleDocSections = {
  'app-api-families': [
    '| `history` | `GET /v1/transactions/history` (signed), `/v1/accounts/{id}/transactions`, `/v1/assets/definitions/{id}/transactions` (+ `POST …/query`; docs/history.md) | — |',
  ],
  'app-api-id-names': [
    '| `/v1/accounts/{id}/transactions`, `/v1/assets/definitions/{id}/transactions` (+ `/query`) | `id` (account, definition) |',
    '| `/v1/transactions/history` | `asset_id` (asset) |',
    '| CLI `torana tx history` | `--of` (account), `--definition` (definition), `--asset` (asset) |',
  ],
  'config-sections': [renderModuleConfigDocs(historyConfig)],
  'errors-routes': [
    '## Transaction history\n\nThe history routes (docs/history.md) answer 422 `query_budget_exceeded` when one request would read\nmore than `history.scan_entries_max` index entries.',
  ],
  'indexer-read-families': [
    '| `history` | `/v1/transactions/history`, `/v1/accounts/{id}/transactions`, `/v1/assets/definitions/{id}/transactions` and their `POST …/query` twins (docs/history.md) |',
  ],
};
