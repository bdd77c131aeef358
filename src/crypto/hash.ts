// Ledger hash: BLAKE2b with a 32-byte digest (RFC 7693; the digest length is in the parameter
// block, so this is not a truncated BLAKE2b-512), computed by the platform backend (backend.ts):
// libsodium's crypto_generichash on Node, @noble/hashes in a browser bundle.
// Like the reference ledger, the lowest bit of the last byte is
// forced to 1 so a ledger hash can never be mistaken for another 32-byte value such as a key.
import { backend } from '#crypto-backend';
import { fromHex, toHex } from './hex.js';

export const HASH_BYTES = 32;

/** Plain BLAKE2b-256 of `data` (no bit forcing). */
export function blake2b256(data: Uint8Array): Uint8Array {
  return backend.blake2b256(data);
}

/** The ledger ("prehashed") hash: BLAKE2b-256 with `out[31] |= 1`. */
export function hash(data: Uint8Array): Uint8Array {
  const out = blake2b256(data);
  out[HASH_BYTES - 1]! |= 1;
  return out;
}

/** Lowercase hex, 64 characters. */
export function hashToHex(h: Uint8Array): string {
  return toHex(h);
}

/**
 * Parses a ledger hash: exactly 64 hex digits (either case) whose last byte has its lowest bit
 * set. Anything else, including a plain BLAKE2b digest with that bit clear, gives undefined.
 */
export function hashFromHex(s: string): Uint8Array | undefined {
  if (typeof s !== 'string' || s.length !== HASH_BYTES * 2) return undefined;
  const bytes = fromHex(s, HASH_BYTES);
  if (bytes === undefined || (bytes[HASH_BYTES - 1]! & 1) !== 1) return undefined;
  return bytes;
}
