// The only place the crypto layer draws randomness, so that a simulator or an audit has one
// seam to look at. It uses the operating system's CSPRNG through Node (getrandom(2) on Linux).
import { randomFillSync } from 'node:crypto';
import { assert } from '../util/assert.js';

/** Largest single draw; key generation needs 32 bytes, so anything near this is a bug. */
export const RANDOM_BYTES_MAX = 1024 * 1024;

export function randomBytes(n: number): Uint8Array {
  assert(Number.isSafeInteger(n) && n >= 0 && n <= RANDOM_BYTES_MAX, `randomBytes: bad length ${n}`);
  return randomFillSync(new Uint8Array(n));
}
