// The repo agreements module's entries in the shared documentation pages (src/modules/docs.ts renders
// them into docs/app-api.md and docs/security.md).

import type { ModuleDocSections } from '../descriptor.js';
import {
  REPO_ESCROW_PARAMETER,
  REPO_HAIRCUT_BPS_MAX,
  REPO_MARGIN_WINDOW_MS_MAX,
  REPO_METADATA_BYTES_MAX,
  REPO_PRICES_MAX,
  REPO_RATE_BPS_MAX,
} from './model.js';

export const REPO_DOC_SECTIONS: ModuleDocSections = {
  'app-api-families': [
    '| `repo` | `/v1/repo/agreements` (+ `/query`), `/v1/repo/agreements/{id}` (repo agreements, read only; docs/repo.md) | — |',
  ],
  'app-api-id-names': [
    '| `GET /v1/repo/agreements`, `POST /v1/repo/agreements/query` filters | `initiator`, `counterparty`, `custodian` (account), `cash_definition`, `collateral_definition` (definition) |',
  ],
  'security-writes': [
    `**Repo agreements** (docs/repo.md). Only the counterparty accepts an agreement; only the initiator tops ` +
      `up or substitutes collateral; an early unwind needs both parties; only the price authority (the ` +
      `custodian, else the counterparty) sets prices; only the agreement's own scheduled run settles it at ` +
      `maturity or defaults it. The escrow account (\`${REPO_ESCROW_PARAMETER}\`) signs nothing and only repo ` +
      `settlement debits it. Limits: ${REPO_PRICES_MAX} prices per agreement, ${REPO_METADATA_BYTES_MAX.toLocaleString('en-US')} ` +
      `bytes of encoded metadata per leg, rates up to ${REPO_RATE_BPS_MAX.toLocaleString('en-US')} and haircuts up to ` +
      `${REPO_HAIRCUT_BPS_MAX.toLocaleString('en-US')} basis points, margin windows up to ` +
      `${REPO_MARGIN_WINDOW_MS_MAX.toLocaleString('en-US')} ms (fixed, not configurable).`,
  ],
};
