// The error a refused submission answers with, shared by POST /transaction (thrown, with its HTTP status)
// and the batch channels (one error body per refused item). Codes come from the registry (docs/errors.md).

import type { RouteDeps } from '../deps.js';
import { type GatewayError, gatewayError } from '../errors.js';
import type { SubmitOutcome } from '../ports.js';

/** Seconds a client should wait after a full queue: one block interval is the natural drain step. */
export const QUEUE_FULL_RETRY_AFTER_S = 1;

export function refusalError(d: RouteDeps, r: Exclude<SubmitOutcome, { ok: true }>): GatewayError {
  switch (r.kind) {
    case 'codec':
      return gatewayError('invalid_codec_body', {
        codec_code: r.error.code,
        at: r.error.at ?? null,
        reason: r.error.message,
      });
    case 'rejected':
      return d.errors.create(r.rejection.code, { tx_hash: r.hashHex ?? null, reason: r.rejection.message });
    case 'duplicate':
      return d.errors.create(r.code, { tx_hash: r.hashHex });
    case 'rate_limited':
      return gatewayError('rate_limited', { retry_after_s: r.retryAfterS });
    case 'queue_full':
      return d.errors.create(r.code, {
        tx_hash: r.hashHex,
        depth: r.depth,
        capacity: r.capacity,
        retry_after_s: QUEUE_FULL_RETRY_AFTER_S,
      });
  }
}
