// The browser crypto backend (the `browser` target of `#crypto-backend`): pure JavaScript, no
// WebAssembly, no native addon, synchronous, so `hash()` and `sign()` keep their synchronous API
// and a bundle needs neither top-level await nor a CSP exception for wasm.
//   - Ed25519: @noble/curves (point arithmetic) + @noble/hashes sha512. Signing is noble's RFC 8032
//     §5.1.6 (deterministic, so the bytes equal libsodium's). Verification is written here rather
//     than taken from `ed25519.verify`: noble's strict mode (`zip215: false`) still uses the
//     cofactored equation and accepts a small-order R, while the node (libsodium) uses the
//     cofactorless one and rejects it. A client must not accept what the node refuses, so this
//     follows libsodium's crypto_sign_verify_detached rule for rule (see `verifyStrict`).
//   - BLAKE2b-256: @noble/hashes blake2b with dkLen 32 (RFC 7693 parameter block, not truncation).
//     hash-wasm is faster but only initialises asynchronously (docs/design/dependencies.md).
//   - BLS12-381: not offered here (it would put the pairing code in every bundle): verification answers
//     false. A light client checks commit certificates with bls-noble.ts, which only it imports.
import { ed25519 } from '@noble/curves/ed25519';
import { blake2b } from '@noble/hashes/blake2';
import { sha512 } from '@noble/hashes/sha2';
import { bytesEqual } from '../util/hex.js';
import type { CryptoBackend } from './backend.js';

type EdPoint = ReturnType<typeof ed25519.Point.fromBytes>;

const HASH_BYTES = 32;
const SEED_BYTES = 32;
const POINT_BYTES = 32;
/** The prime order L of the base point (RFC 8032 §5.1). */
const L = 2n ** 252n + 27742317777372353535851937790883648493n;

function leToBigint(bytes: Uint8Array): bigint {
  let n = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[i]!);
  return n;
}

/** RFC 8032 §5.1.3 decoding with y < p required (no ZIP-215 leniency); undefined when invalid. */
function decodePoint(bytes: Uint8Array): EdPoint | undefined {
  try {
    return ed25519.Point.fromBytes(bytes, false);
  } catch {
    return undefined;
  }
}

/**
 * libsodium's strict rules: S < L; A canonical, on the curve, not of small order; R not of small
 * order; then [S]B - [k]A, encoded, must equal R byte for byte (cofactorless). Any other R
 * encoding (non-canonical, off the curve) cannot be equal to a canonical encoding, as in libsodium.
 */
function verifyStrict(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  const rBytes = signature.subarray(0, POINT_BYTES);
  const s = leToBigint(signature.subarray(POINT_BYTES));
  if (s >= L) return false;
  const a = decodePoint(publicKey);
  if (a === undefined || a.isSmallOrder()) return false;
  const r = decodePoint(rBytes);
  if (r === undefined || r.isSmallOrder()) return false;
  const hram = new Uint8Array(POINT_BYTES * 2 + message.length);
  hram.set(rBytes, 0);
  hram.set(publicKey, POINT_BYTES);
  hram.set(message, POINT_BYTES * 2);
  const k = leToBigint(sha512(hram)) % L;
  const check = ed25519.Point.BASE.multiplyUnsafe(s).subtract(a.multiplyUnsafe(k));
  return bytesEqual(check.toBytes(), rBytes);
}

export const backend: CryptoBackend = {
  info: {
    platform: 'browser',
    ed25519: '@noble/curves ed25519 (pure JS), verification with libsodium-equivalent strict rules',
    blake2b: '@noble/hashes blake2b (pure JS)',
    bls: false,
  },
  blake2b256(data) {
    return blake2b(data, { dkLen: HASH_BYTES });
  },
  ed25519FromSeed(seed) {
    const publicKey = ed25519.getPublicKey(seed);
    const secret = new Uint8Array(SEED_BYTES + POINT_BYTES);
    secret.set(seed, 0);
    secret.set(publicKey, SEED_BYTES);
    return { publicKey, secret };
  },
  ed25519Sign(secret, message) {
    return ed25519.sign(message, secret.subarray(0, SEED_BYTES));
  },
  ed25519Verify(publicKey, message, signature) {
    try {
      return verifyStrict(publicKey, message, signature);
    } catch {
      return false; // noble asserts on ranges; untrusted bytes must give an answer, not a throw
    }
  },
  ed25519IsValidPoint(publicKey) {
    const p = decodePoint(publicKey);
    return p !== undefined && !p.isSmallOrder() && p.isTorsionFree();
  },
  blsVerify: () => false,
  blsIsValidPublicKey: () => false,
  blsFastAggregateVerify: () => false,
};
