// The telemetry module's entries in the shared documentation pages (src/modules/docs.ts renders them into
// docs/app-api.md): its route family, which is not an application family.

import type { ModuleDocSections } from '../descriptor.js';

export const TELEMETRY_DOC_SECTIONS: ModuleDocSections = {
  'app-api-always': [
    "| `telemetry` | `/v1/telemetry/*` (this node's view of its peers and of block propagation, node-local; `peers-info` and `propagation` are `public`, the `live` feed a `metrics` route; docs/telemetry.md) |",
  ],
};
