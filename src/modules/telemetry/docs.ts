// The telemetry module's entries in the shared documentation pages (src/modules/docs.ts renders them into
// docs/app-api.md, docs/configuration.md and docs/dashboard.md): its route family, which is not an
// application family, its keys of the `[telemetry]` section and its panel of the dashboard's consensus
// page (dashboard.ts).

import { renderModuleConfigDocs } from '../../config/docs.js';
import type { ModuleDocSections } from '../descriptor.js';
import { telemetryConfig } from './config.js';

export const TELEMETRY_DOC_SECTIONS: ModuleDocSections = {
  'app-api-always': [
    "| `telemetry` | `/v1/telemetry/*` (this node's view of its peers and of block propagation, node-local; `peers-info` and `propagation` are `public`, the `live` feed a `metrics` route; docs/telemetry.md) |",
  ],
  'config-sections': [renderModuleConfigDocs(telemetryConfig)],
  'dashboard-additions': [
    "| telemetry (`dashboard.ts`) | consensus page (shown when `/v1/telemetry/peers-info` is served): `GET /v1/telemetry/peers-info` (peers, connected or not, last seen) and `/v1/telemetry/propagation` (the newest block's spread), polled with the page |",
  ],
};
