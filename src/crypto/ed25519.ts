// Ed25519 (RFC 8032 §5.1) through the platform backend (backend.ts): libsodium on Node, noble in a
// browser bundle, both with strict verification: a non-canonical S (S >= L, RFC 8032 §5.1.7 step
// 1), non-canonical or small-order public keys and a small-order R are rejected, and R is compared
// byte for byte with the recomputed canonical encoding. Lengths and types are checked here first
// because the backends assume them (sodium-native throws on wrong lengths), and verification must
// never throw on untrusted input.
import { backend } from '#crypto-backend';
import { CryptoError } from './errors.js';
import { randomBytes } from './random.js';

export const ED25519_PUBLIC_KEY_BYTES = 32;
export const ED25519_SECRET_SEED_BYTES = 32;
export const ED25519_SIGNATURE_BYTES = 64;

/**
 * Holds the expanded secret key so that signing on Node does not redo the seed expansion (one
 * SHA-512 and one base-point multiplication) on every call; the browser backend re-expands, as
 * noble signs from the seed. Keep instances inside a signer component.
 */
export class Ed25519Signer {
  readonly publicKey: Uint8Array;
  readonly #secret: Uint8Array;

  constructor(seed: Uint8Array) {
    if (!(seed instanceof Uint8Array) || seed.length !== ED25519_SECRET_SEED_BYTES) {
      throw new CryptoError('invalid_secret', `Ed25519 seed must be ${ED25519_SECRET_SEED_BYTES} bytes`);
    }
    const { publicKey, secret } = backend.ed25519FromSeed(seed);
    this.publicKey = publicKey;
    this.#secret = secret;
  }

  sign(message: Uint8Array): Uint8Array {
    return backend.ed25519Sign(this.#secret, message);
  }

  /** A copy of the 32-byte seed (the first half of the expanded key, on every backend). */
  seed(): Uint8Array {
    return this.#secret.slice(0, ED25519_SECRET_SEED_BYTES);
  }
}

export function ed25519KeyPairFromSeed(seed: Uint8Array): { publicKey: Uint8Array; seed: Uint8Array } {
  const signer = new Ed25519Signer(seed);
  return { publicKey: signer.publicKey, seed: signer.seed() };
}

export function ed25519Generate(): { publicKey: Uint8Array; seed: Uint8Array } {
  return ed25519KeyPairFromSeed(randomBytes(ED25519_SECRET_SEED_BYTES));
}

/** Signs with a bare seed (expands it each time; prefer `Ed25519Signer` for repeated signing). */
export function ed25519Sign(seed: Uint8Array, message: Uint8Array): Uint8Array {
  return new Ed25519Signer(seed).sign(message);
}

/** Strict RFC 8032 verification. Answers false, never throws, for any malformed input. */
export function ed25519Verify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  if (!(publicKey instanceof Uint8Array) || publicKey.length !== ED25519_PUBLIC_KEY_BYTES) return false;
  if (!(signature instanceof Uint8Array) || signature.length !== ED25519_SIGNATURE_BYTES) return false;
  if (!(message instanceof Uint8Array)) return false;
  return backend.ed25519Verify(publicKey, message, signature);
}

/**
 * True when the bytes are a canonical encoding of a point of the prime-order subgroup (not small
 * order). Costs one scalar multiplication, so parsing does not call it; verification implies it.
 */
export function ed25519IsValidPublicKey(publicKey: Uint8Array): boolean {
  if (!(publicKey instanceof Uint8Array) || publicKey.length !== ED25519_PUBLIC_KEY_BYTES) return false;
  return backend.ed25519IsValidPoint(publicKey);
}
