// BN254 scalar-field elements (the wire's `Field`): 32 bytes, big-endian, < r.
// Every public input of a Groth16 proof is such an element. Conversions never throw on untrusted
// bytes: they return undefined, and callers turn that into a rejection code.
import { blake2b256 } from '../crypto/hash.js';
import { fromHex, toHex } from '../util/hex.js';

/** The BN254 (alt_bn128) scalar-field order r: circom and snarkjs work modulo it. */
export const FIELD_ORDER = 21888242871839275222246405745257275088548364400416034343698204186575808495617n;
export const FIELD_BYTES = 32;

/** True for an integer in [0, r). */
export function isField(value: bigint): boolean {
  return value >= 0n && value < FIELD_ORDER;
}

/** 32 big-endian bytes → bigint, or undefined when the length is wrong or the value is ≥ r. */
export function fieldFromBytes(bytes: Uint8Array): bigint | undefined {
  if (bytes.length !== FIELD_BYTES) return undefined;
  let v = 0n;
  for (const b of bytes) v = (v << 8n) | BigInt(b);
  return v < FIELD_ORDER ? v : undefined;
}

/** An element of [0, r) → 32 big-endian bytes. Throws on a value outside the field (programmer error). */
export function fieldToBytes(value: bigint): Uint8Array {
  if (!isField(value)) throw new RangeError('field element out of range');
  const out = new Uint8Array(FIELD_BYTES);
  let v = value;
  for (let i = FIELD_BYTES - 1; i >= 0; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

/** The JSON form: 64 lower-case hex digits, no 0x. */
export function fieldToHex(value: bigint): string {
  return toHex(fieldToBytes(value));
}

/** Parses the JSON form (64 hex digits, either case); undefined when malformed or ≥ r. */
export function fieldFromHex(text: string): bigint | undefined {
  if (typeof text !== 'string' || text.length !== FIELD_BYTES * 2) return undefined;
  const bytes = fromHex(text, FIELD_BYTES);
  return bytes === undefined ? undefined : fieldFromBytes(bytes);
}

/**
 * Maps arbitrary bytes to a field element: BLAKE2b-256 read big-endian, reduced mod r. Used for the
 * public inputs that bind a proof to a call, an action or a usage record (src/zk/bind.ts); the small
 * bias of the reduction does not matter for binding (collisions stay 2^-253-hard).
 */
export function fieldFromDigest(data: Uint8Array): bigint {
  let v = 0n;
  for (const b of blake2b256(data)) v = (v << 8n) | BigInt(b);
  return v % FIELD_ORDER;
}
