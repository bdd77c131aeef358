// The only place the crypto layer draws randomness, so that a simulator or an audit has one
// seam to look at. It uses the operating system's CSPRNG through the Web Crypto API, which Node
// ≥ 20 and browsers both offer as `globalThis.crypto` (on Node it is the same generator as
// `node:crypto` randomFillSync), so the SDK's browser bundle and the node share this file.
import { assert } from '../util/assert.js';

/** Largest single draw; key generation needs 32 bytes, so anything near this is a bug. */
export const RANDOM_BYTES_MAX = 1024 * 1024;
/** Web Crypto getRandomValues throws QuotaExceededError above 65536 bytes per call (W3C spec). */
const GET_RANDOM_VALUES_BYTES_MAX = 65_536;

export function randomBytes(n: number): Uint8Array {
  assert(Number.isSafeInteger(n) && n >= 0 && n <= RANDOM_BYTES_MAX, `randomBytes: bad length ${n}`);
  const out = new Uint8Array(n);
  for (let at = 0; at < n; at += GET_RANDOM_VALUES_BYTES_MAX) {
    globalThis.crypto.getRandomValues(out.subarray(at, Math.min(n, at + GET_RANDOM_VALUES_BYTES_MAX)));
  }
  return out;
}
