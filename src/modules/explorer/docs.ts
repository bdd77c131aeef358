// The explorer module's entries in the shared documentation pages (src/modules/docs.ts renders them into
// docs/app-api.md, docs/dashboard.md, docs/configuration.md, docs/indexer.md and docs/security.md): its
// route family, the route parameters and filters that take names in place of ids, the dashboard's pages it
// adds (dashboard.ts), its configuration section, and what its section's postgres backend does (the
// indexer page's "Serving the explorer from PostgreSQL", the security page's limits of the replica).

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
  'indexer-replica-intro': [
    "## Serving the explorer from PostgreSQL\n\nA node can serve its explorer routes (`/v1/explorer/*`, docs/explorer.md) and the other read-only\nfamilies served over the committed reads (`ModuleRouteEnv.reads`, listed below) from the indexer's\ndatabase instead of its own stores:",
  ],
  'indexer-replica': [
    "```toml\n[explorer]\nbackend = \"postgres\"          # default \"embedded\": the node's own stores\npg = \"host=/var/run/postgresql dbname=ledger\"   # as `torana index --pg`\npg_poll_ms = 500              # how often the indexed height is read again\n```\n\nAt start the node reads every block the indexer wrote (`blocks.payload`, the block as the block log\nstores it), re-executes them in height order into a ledger of its own in memory, checks that each one\ngives the block hash the indexer stored, and then follows the database: every `explorer.pg_poll_ms` it\nreads `indexer_state.height` and applies the blocks indexed since. The routes run the same code over\nthat ledger as over the node's, so every answer (status and body, paging, filters, cursors) is the one\nthe embedded backend gives at the same height; `test/explorer/pg-backend.test.ts` compares both\nbackends on every explorer and history route of the route table.\n\n**The indexed height.** Every answer of these routes carries the header\n`x-torana-indexed-height: <height>`: the height it was given at, the database's indexed height when last\nread. While the indexer lags the node the answers stay at that height (`GET /v1/explorer/health` names\nit, a newer block answers 404); nothing is read from the node's newer blocks. When the indexer moves on,\nthe next poll brings the answers with it. The live streams (`/v1/explorer/*/stream`) follow the same\nheight: an item is sent when its block has been read from the database.\n\nDifferences that are not chain data: `commit_time_ms_avg` of `GET /v1/explorer/metrics` is the mean time\nfrom a block's creation until this process applied it, here read from the database (the indexer's lag\nincluded; 0 until a block arrives after start). Block lookups by hash cover every indexed block.\n\nThe other routes (accounts, domains, assets, queries, status, \u2026) keep reading the node's own state. The\ndatabase must index the node's chain (`indexer_state.chain_id` equal to `node.chain_id`, else the node\ndoes not start), and hold the payload of every block: a database indexed by a release before the\n`payload` column (migration `1700000000002_block-payload`) is indexed again into an empty database. The\nreplayed state is held in memory beside the node's (as much again as the node's own world state), and\nthe start re-executes the whole indexed chain.\nKeep a password out of the configuration file: connect over a unix socket with peer authentication,\nor leave `password` out of `explorer.pg` and set `PGPASSWORD` in the node's environment (node-postgres\nreads the libpq variables). The node only reads; a role with SELECT on the indexer's tables is enough.",
  ],
  'security-read-replica': [
    'A node with `explorer.backend = "postgres"` (docs/indexer.md "Serving the explorer from PostgreSQL") reads\nthe indexer\'s database with one connection and re-executes its blocks into a second world state in\nmemory (as large as its own); it trusts the database only as far as each block re-executes to the block\nhash stored beside it:\n\n| limit | default | when reached |\n| --- | --- | --- |\n| `explorer.pg_poll_ms` | 500 ms (at least 10) | the indexed height is read at most this often |\n| `REPLICA_READ_BLOCKS` (src/node/pg-replica.ts) | 256 blocks | blocks read from the database in one query |',
  ],
  'dashboard-additions': [
    "| explorer (`dashboard.ts`) | the chain's pages, listed right after the overview when their routes are served: blocks `#/blocks?page=N` (`GET /v1/explorer/blocks`; on the first page, blocks committed meanwhile from the SSE `GET /v1/explorer/blocks/stream` and `GET /v1/explorer/transactions/latest`, asked again on each new block), block `#/block/<height>` (`GET /v1/explorer/blocks/{height}`: header, transactions, commit certificate), transaction `#/tx/<hash>` (`GET /v1/explorer/transactions/{hash}`: status, block, authority, instructions; a rejection's code and message, its amounts at their definition's scale as the CLI shows them: the committed `account cap 200 (window tx, units at scale 2) …` reads `account cap 2.00 (window tx) …`; its data events as the live feed saw them, else replayed by `GET /v1/events/sse`), accounts `#/accounts?page=N` (`GET /v1/explorer/accounts`: balance, NFT and owned-domain counts), assets `#/assets?page=N` (`GET /v1/explorer/asset-definitions`, with holder counts), asset `#/asset/<definition>` (`GET /v1/explorer/asset-definitions/{id}`, its `/snapshot`: holders, Gini coefficient, Lorenz points, largest holders, and `/econometrics`: supply, minted, burned, transferred over the recent blocks), domains `#/domains?page=N` and domain `#/domain/<id>` (`GET /v1/explorer/domains`, `…/{id}`: owner, account, definition and NFT counts, metadata), NFTs `#/nfts?page=N` (`GET /v1/explorer/nfts`); account page: owned counts and the QR code of the id (`GET /v1/explorer/accounts/{id}`, `…/qr`); search: a block height opens its block, a hash (64 hex digits) its transaction, else its block; live feed: the newest blocks (`GET /v1/explorer/blocks?per_page=10`) join it whenever its stream (re)connects |",
  ],
};
