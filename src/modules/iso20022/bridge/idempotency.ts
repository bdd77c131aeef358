// Idempotent resubmission: a message id sent again with the same body answers the first message's
// result (a replay) instead of an error; the same id with a different body is refused (409
// iso_duplicate_message). The comparison is by a digest of the request body kept in the record's
// info (`request_digest`): the XML text as received, or the flat fields as JSON with sorted keys.

import { hash } from '../../../crypto/hash.js';
import { toHex } from '../../../util/hex.js';
import { type BridgeRecord, infoOf } from './record.js';

/** Set to `true` on a submission's answer when the message was already received and this is its record. */
export const REPLAY_HEADER = 'x-ledger-idempotent-replay';

/** The info key holding the digest of the body a record was created from. */
export const REQUEST_DIGEST_KEY = 'request_digest';

function sortedJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(sortedJson).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const entries = Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${sortedJson((v as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** Hex SHA digest of a request body (XML text as is; flat fields independent of key order). */
export function requestDigest(body: string | object): string {
  const text = typeof body === 'string' ? `xml:${body}` : `json:${sortedJson(body)}`;
  return toHex(hash(new TextEncoder().encode(text)));
}

/** The record with the digest of its request body in its info. */
export function withRequestDigest(r: BridgeRecord, digest: string): BridgeRecord {
  return { ...r, info: { ...infoOf(r), [REQUEST_DIGEST_KEY]: digest } };
}

/**
 * True when `existing` was created from a body with this digest. Records stored before digests were
 * kept have none and never match (a resubmission of them stays refused).
 */
export function sameRequest(existing: BridgeRecord, digest: string): boolean {
  return infoOf(existing)[REQUEST_DIGEST_KEY] === digest;
}
