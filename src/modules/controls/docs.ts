// The transfer controls module's entries in the shared documentation pages (src/modules/docs.ts renders
// them into docs/app-api.md).

import type { ModuleDocSections } from '../descriptor.js';

export const CONTROLS_DOC_SECTIONS: ModuleDocSections = {
  'app-api-families': [
    '| `controls` | `/v1/controls/*` (transfer controls, read only; docs/controls.md) | — |',
  ],
  'app-api-id-names': [
    '| `POST /v1/controls/asset-transfer/get`, `…/asset-definition/get` | `account_id` (account), `asset_definition_id` (definition) |',
  ],
};
