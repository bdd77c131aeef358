// The content bundles module's entries in the shared documentation pages (src/modules/docs.ts renders
// them into docs/app-api.md, docs/security.md and docs/errors.md).

import { renderModuleConfigDocs } from '../../config/docs.js';
import type { ModuleDocSections } from '../descriptor.js';
import { contentConfig } from './config.js';
import {
  CONTENT_ALLOW_LIST_MAX,
  CONTENT_FILES_MAX,
  CONTENT_PATH_BYTES_MAX,
  CONTENT_TOTAL_BYTES_MAX,
  CONTENT_TYPE_BYTES_MAX,
} from './model.js';

const MiB = 1024 * 1024;
const c = contentConfig.spec.keys;
const mib = (n: number) => `${(n / MiB).toLocaleString('en-US')} MiB`;

export const CONTENT_DOC_SECTIONS: ModuleDocSections = {
  'config-sections': [renderModuleConfigDocs(contentConfig)],
  'app-api-families': [
    '| `content` | `/v1/content/{bundle}`, `/v1/content/{bundle}/{path}` (bundle read, file upload and download; docs/content.md) | a node directory (its store is in the data folder) |',
  ],
  'security-writes': [
    `**Content bundles** (docs/content.md). Only a bundle's owner (or Admin) sets its access or retires it, ` +
      `and only the owner's signed request uploads its files; a node keeps uploaded bytes only when their ` +
      `size and SHA-256 are the manifest's, never relays, runs or interprets them, and serves them with ` +
      `\`nosniff\`, \`Content-Security-Policy: default-src 'none'; sandbox\` and \`attachment\` for media ` +
      `that could render active content. Restricted bundles are served only to a signed request of the ` +
      `owner, a listed account or a holder of the named asset. Limits on the ledger (fixed): ` +
      `${CONTENT_FILES_MAX} files per bundle, ${CONTENT_PATH_BYTES_MAX} bytes per path, ` +
      `${CONTENT_TYPE_BYTES_MAX} bytes per media type, ${mib(CONTENT_TOTAL_BYTES_MAX)} per bundle, ` +
      `${CONTENT_ALLOW_LIST_MAX} accounts per allow-list. Limits per node (configurable): ` +
      `\`content.store_bytes_max\` ${mib(c.store_bytes_max.default)} stored, \`content.upload_bytes_max\` ` +
      `${mib(c.upload_bytes_max.default)} per upload, egress per \`content.egress_window_ms\` ` +
      `(${c.egress_window_ms.default / 1000} s) of \`content.egress_node_bytes\` ${mib(c.egress_node_bytes.default)} ` +
      `for the node and \`content.egress_client_bytes\` ${mib(c.egress_client_bytes.default)} per client (429 with Retry-After).`,
  ],
  'errors-routes': [
    [
      '## Content routes',
      '',
      'Registered by the node for `/v1/content/*` (docs/content.md). The upload and restricted downloads',
      'are signed app requests, so `signature_missing`, `request_stale`, `request_signature_invalid` and',
      '`nonce_reused` apply as well.',
      '',
      '| code | HTTP status | meaning |',
      '| --- | --- | --- |',
      '| `content_not_found` | 404 | No bundle with this id, or no such path in its manifest. |',
      '| `content_not_stored` | 404 | The path is in the manifest but this node was not given the file (no relay between nodes). |',
      '| `content_retired` | 410 | The bundle is retired: its files are no longer served or taken. |',
      '| `content_access_denied` | 403 | The signing account is not the owner, not listed, or holds none of the named asset. |',
      '| `content_not_owner` | 403 | An upload signed by another account than the bundle owner. |',
      "| `content_hash_mismatch` | 422 | The uploaded bytes do not have the manifest entry's size and SHA-256. |",
      '| `content_store_full` | 507 | The node stores `content.store_bytes_max` bytes already. |',
      '| `content_range_not_satisfiable` | 416 | Not one byte range within the file (several ranges are refused); `Content-Range: bytes */size`. |',
      '| `content_egress_limited` | 429 | The node or client egress budget of the window is spent (`details.scope`); retry after `Retry-After`. |',
    ].join('\n'),
  ],
};
