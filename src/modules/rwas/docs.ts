// The RWA lots module's entries in the shared documentation pages (src/modules/docs.ts renders them into
// docs/app-api.md and docs/security.md).

import type { ModuleDocSections } from '../descriptor.js';
import {
  RWA_MERGE_LOTS_MAX,
  RWA_METADATA_BYTES_MAX,
  RWA_REFERENCE_BYTES_MAX,
  RWA_SPEC_BYTES_MAX,
} from './model.js';

export const RWAS_DOC_SECTIONS: ModuleDocSections = {
  'app-api-families': [
    '| `rwas` | `/v1/rwas` (+ `/query`), `/v1/explorer/rwas`, `/v1/explorer/rwas/{rwa_id}` (real-world-asset lots, read only; docs/rwas.md) | — |',
  ],
  'app-api-id-names': [
    '| `GET /v1/rwas`, `POST /v1/rwas/query` filters | `owned_by`, `controller` (account), `controls` (definition) |',
  ],
  'security-writes': [
    `**Real-world-asset lots** (docs/rwas.md). Only a lot's owner transfers, merges or redeems it; only its ` +
      `controller (the registering account), Admin or a holder of \`CanControlRwa {rwa}\` freezes, holds, ` +
      `releases, forces a transfer or sets its controls. A frozen lot and a held quantity never move, and ` +
      `every movement of a lot with controls passes the transfer checks of its policy definition. Limits: ` +
      `${RWA_MERGE_LOTS_MAX} lots per merge (so at most ${RWA_MERGE_LOTS_MAX} parents per lot), ` +
      `${RWA_METADATA_BYTES_MAX.toLocaleString('en-US')} bytes of encoded metadata per lot, ${RWA_SPEC_BYTES_MAX} bytes ` +
      `of spec, ${RWA_REFERENCE_BYTES_MAX} bytes of primary reference (fixed, not configurable).`,
  ],
};
