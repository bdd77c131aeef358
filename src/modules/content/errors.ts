// The content routes' gateway error codes, added to the node's one error registry at composition time
// (descriptor `gatewayErrors`; gateway/errors.ts createErrorRegistry) and listed in docs/errors.md.

import type { ErrorSpec } from '../../gateway/errors.js';

export const CONTENT_GATEWAY_ERRORS: Readonly<Record<string, ErrorSpec>> = {
  content_not_found: {
    status: 404,
    message: 'No content bundle with this id, or no such path in its manifest.',
  },
  content_not_stored: {
    status: 404,
    message: 'The path is in the manifest but this node has not been given the file (nodes do not relay).',
  },
  content_retired: { status: 410, message: 'The content bundle is retired: its files are no longer served.' },
  content_access_denied: {
    status: 403,
    message: "The signing account may not download this bundle's files (not the owner, listed or a holder).",
  },
  content_not_owner: { status: 403, message: "Only the bundle's owner uploads its files." },
  content_hash_mismatch: {
    status: 422,
    message: "The uploaded bytes do not have the manifest entry's size and SHA-256.",
  },
  content_store_full: {
    status: 507,
    message: "The node's content store is full (content.store_bytes_max).",
  },
  content_range_not_satisfiable: {
    status: 416,
    message: 'The Range is not one byte range within the file (several ranges are refused).',
  },
  content_egress_limited: {
    status: 429,
    message:
      'The egress budget of this node or this client is spent for the window; retry after Retry-After.',
  },
};
