// The explorer module's entries in the shared documentation pages (src/modules/docs.ts renders them into
// docs/app-api.md, docs/dashboard.md and docs/configuration.md): its route family, the route parameters and
// filters that take names in place of ids, the dashboard's pages it adds (dashboard.ts) and its
// configuration section.

import { renderModuleConfigDocs } from '../../config/docs.js';
import type { ModuleDocSections } from '../descriptor.js';
import { explorerConfig } from './config.js';

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
  'config-sections': [renderModuleConfigDocs(explorerConfig)],
  'dashboard-additions': [
    "| explorer (`dashboard.ts`) | the chain's pages, listed right after the overview when their routes are served: blocks `#/blocks?page=N` (`GET /v1/explorer/blocks`; on the first page, blocks committed meanwhile from the SSE `GET /v1/explorer/blocks/stream` and `GET /v1/explorer/transactions/latest`, asked again on each new block), block `#/block/<height>` (`GET /v1/explorer/blocks/{height}`: header, transactions, commit certificate), transaction `#/tx/<hash>` (`GET /v1/explorer/transactions/{hash}`: status, block, authority, instructions; a rejection's code and message, its amounts at their definition's scale as the CLI shows them: the committed `account cap 200 (window tx, units at scale 2) …` reads `account cap 2.00 (window tx) …`; its data events as the live feed saw them, else replayed by `GET /v1/events/sse`), accounts `#/accounts?page=N` (`GET /v1/explorer/accounts`: balance, NFT and owned-domain counts), assets `#/assets?page=N` (`GET /v1/explorer/asset-definitions`, with holder counts), asset `#/asset/<definition>` (`GET /v1/explorer/asset-definitions/{id}`, its `/snapshot`: holders, Gini coefficient, Lorenz points, largest holders, and `/econometrics`: supply, minted, burned, transferred over the recent blocks), domains `#/domains?page=N` and domain `#/domain/<id>` (`GET /v1/explorer/domains`, `…/{id}`: owner, account, definition and NFT counts, metadata), NFTs `#/nfts?page=N` (`GET /v1/explorer/nfts`); account page: owned counts and the QR code of the id (`GET /v1/explorer/accounts/{id}`, `…/qr`); search: a block height opens its block, a hash (64 hex digits) its transaction, else its block; live feed: the newest blocks (`GET /v1/explorer/blocks?per_page=10`) join it whenever its stream (re)connects |",
  ],
};
