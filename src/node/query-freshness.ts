// Freshness of signed queries: the transaction rules applied to queries. A signed
// query is a bearer token for what its authority may read: without a freshness check, one captured
// query could be replayed forever. Checked in a fixed order: creation time not beyond the allowed clock
// drift (the chain's `maxClockDriftMs`, as for transactions), not older than `query.max_age_ms`, then not
// seen before within that window (a bounded per-node cache of payload hashes, `query.replay_cache_max`).
// Legitimate clients sign each query with the current time; the SDK keeps it strictly increasing per
// client, so identical queries sent in the same millisecond still differ.

import type { QueryOutcome } from '../gateway/ports.js';

export interface QueryFreshnessLimits {
  maxAgeMs: number;
  replayCacheMax: number;
}

type Refusal = Extract<QueryOutcome, { ok: false }>;

/** The time checks, before the signature is verified (they cost nothing). */
export function checkQueryTime(
  creationTimeMs: number,
  nowMs: number,
  maxClockDriftMs: number,
  maxAgeMs: number,
): Refusal | undefined {
  if (creationTimeMs > nowMs + maxClockDriftMs) {
    return {
      ok: false,
      code: 'query_creation_time_in_future',
      message: `query created ${creationTimeMs - nowMs} ms in the future (drift allowed: ${maxClockDriftMs} ms)`,
      details: { creation_time_ms: creationTimeMs, now_ms: nowMs, max_clock_drift_ms: maxClockDriftMs },
    };
  }
  if (creationTimeMs < nowMs - maxAgeMs) {
    return {
      ok: false,
      code: 'query_expired',
      message: `query created ${nowMs - creationTimeMs} ms ago (max age: ${maxAgeMs} ms)`,
      details: { creation_time_ms: creationTimeMs, now_ms: nowMs, max_age_ms: maxAgeMs },
    };
  }
  return undefined;
}

/**
 * Verified queries are remembered by payload hash in the bounded replay cache the operator routes use
 * (gateway/nonce-cache.ts): full, it forgets its oldest entry and raises a watermark, refusing every query
 * created at or before it, so no replay ever passes and memory stays bounded whatever the load.
 */
export function replayedQuery(hashHex: string): Refusal {
  return {
    ok: false,
    code: 'query_replayed',
    message: 'this signed query was already answered (or may have been); sign it again with the current time',
    details: { query_hash: hashHex },
  };
}
