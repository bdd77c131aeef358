// Key layout of the state store. One LMDB database holds two key spaces, told apart by the first
// byte, so the user entries and the applied-height meta commit in the same write transaction:
//   0x00 ‖ name   meta (never visible to callers)
//   0x01 ‖ key    user key; prefixing every key with the same byte keeps bytewise order
// Meta value for META_APPLIED: version u8 (1) | height u64 LE | block hash [32].

import { assert } from '../util/assert.js';
import { StorageError } from './errors.js';
import { HASH_BYTES } from './record.js';

const USER_PREFIX = 0x01;
export const META_APPLIED = Uint8Array.of(0x00, 0x01);
const META_VERSION = 1;
export const META_APPLIED_BYTES = 1 + 8 + HASH_BYTES;

/** LMDB's default maximum key size is 1978 bytes; one byte goes to the key-space prefix. */
export const STATE_KEY_BYTES_MAX = 1977;

const utf8 = new TextEncoder();

export function userKey(key: Uint8Array | string): Uint8Array {
  const raw = typeof key === 'string' ? utf8.encode(key) : key;
  if (raw.length > STATE_KEY_BYTES_MAX) {
    throw new StorageError('storage_invalid_key', `state keys are at most ${STATE_KEY_BYTES_MAX} bytes`, {
      keyBytes: raw.length,
      stateKeyBytesMax: STATE_KEY_BYTES_MAX,
    });
  }
  const out = new Uint8Array(raw.length + 1);
  out[0] = USER_PREFIX;
  out.set(raw, 1);
  // Within LMDB's key limit, in the user key space.
  assert(out.length <= STATE_KEY_BYTES_MAX + 1 && out[0] === USER_PREFIX, 'state key: out of range');
  return out;
}

/** The caller's key from a stored user key, as a copy (`Buffer#slice` would give a view). */
export function fromUserKey(stored: Uint8Array): Uint8Array {
  // Only keys of the user range are scanned (`prefixRange`): meta keys never reach a caller.
  assert(stored[0] === USER_PREFIX, `state key of key space ${stored[0]} handed to a caller`);
  return new Uint8Array(stored.subarray(1));
}

/**
 * The range [start, end) of stored keys that begin with `prefix`. `end` is the prefix plus one in
 * its last byte that is not 0xff; the user key-space byte itself is never 0xff, so one always exists.
 */
export function prefixRange(prefix: Uint8Array | string): { start: Uint8Array; end: Uint8Array } {
  const start = userKey(prefix);
  let last = start.length - 1;
  while (start[last] === 0xff) last -= 1;
  assert(last >= 0, 'state key range: no byte to increment');
  const end = start.slice(0, last + 1);
  end[last]! += 1;
  // A non-empty range: the end sorts after the start and is no longer than it.
  assert(Buffer.compare(start, end) < 0 && end.length <= start.length, 'state key range: empty');
  return { start, end };
}

export function encodeApplied(height: number, blockHash: Uint8Array): Uint8Array {
  // What decodeApplied would refuse must never be written (the commit checked both).
  assert(
    Number.isSafeInteger(height) && height >= 1 && blockHash.length === HASH_BYTES,
    `applied meta for height ${height} with a ${blockHash.length}-byte hash`,
  );
  const out = new Uint8Array(META_APPLIED_BYTES);
  const view = new DataView(out.buffer);
  out[0] = META_VERSION;
  view.setUint32(1, height % 2 ** 32, true);
  view.setUint32(5, Math.floor(height / 2 ** 32), true);
  out.set(blockHash, 9);
  return out;
}

/** Returns undefined for bytes this version did not write (wrong size, version or height). */
export function decodeApplied(bytes: Uint8Array): { height: number; blockHash: Uint8Array } | undefined {
  if (bytes.length !== META_APPLIED_BYTES || bytes[0] !== META_VERSION) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const height = view.getUint32(5, true) * 2 ** 32 + view.getUint32(1, true);
  if (!Number.isSafeInteger(height) || height < 1) return undefined;
  const blockHash = new Uint8Array(bytes.subarray(9));
  assert(blockHash.length === HASH_BYTES, `applied meta: a ${blockHash.length}-byte hash`);
  return { height, blockHash };
}
