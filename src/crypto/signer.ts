// The signer component: the only place private keys live at run time (keys never live in HTTP handlers or bridge state).
// Everything else
// holds a `Signer` and sees only its public key.
// BLS goes through the platform backend (backend.ts) so that a browser bundle of the SDK does not
// pull in the native blst addon: there, BLS keys never verify and are never valid (fail closed).
import { backend } from '#crypto-backend';
import {
  ED25519_SECRET_SEED_BYTES,
  Ed25519Signer,
  ed25519IsValidPublicKey,
  ed25519Verify,
} from './ed25519.js';
import { CryptoError } from './errors.js';
import type { PublicKey } from './keys.js';
import { isKeyTextError, privateKeyFromText, privateKeyToText, publicKeyToText } from './keys.js';
import { randomBytes } from './random.js';

export interface Signer {
  readonly publicKey: PublicKey;
  sign(message: Uint8Array): Uint8Array;
}

export class Ed25519KeyPair implements Signer {
  readonly publicKey: PublicKey;
  readonly #signer: Ed25519Signer;

  private constructor(seed: Uint8Array) {
    this.#signer = new Ed25519Signer(seed);
    this.publicKey = { algorithm: 'ed25519', bytes: this.#signer.publicKey };
  }

  static generate(): Ed25519KeyPair {
    return new Ed25519KeyPair(randomBytes(ED25519_SECRET_SEED_BYTES));
  }

  static fromSeed(seed: Uint8Array): Ed25519KeyPair {
    return new Ed25519KeyPair(seed);
  }

  /** From '802620' + 64 hex digits. Throws `invalid_secret` without repeating the text. */
  static fromPrivateText(s: string): Ed25519KeyPair {
    const key = privateKeyFromText(s);
    if (isKeyTextError(key)) throw new CryptoError('invalid_secret', key.message);
    if (key.algorithm !== 'ed25519') {
      throw new CryptoError('invalid_secret', `expected an ed25519 private key, got ${key.algorithm}`);
    }
    return new Ed25519KeyPair(key.bytes);
  }

  sign(m: Uint8Array): Uint8Array {
    return this.#signer.sign(m);
  }

  /**
   * The key pair in libsodium's form (32-byte public key, 64-byte secret key = seed || public key),
   * which the peer transport's Noise handshake takes as its static key. Only p2p calls this.
   */
  handshakeKeyPair(): { publicKey: Uint8Array; secretKey: Uint8Array } {
    const secretKey = new Uint8Array(64);
    secretKey.set(this.#signer.seed(), 0);
    secretKey.set(this.publicKey.bytes, 32);
    return { publicKey: this.publicKey.bytes.slice(), secretKey };
  }

  privateKeyText(): string {
    return privateKeyToText({ algorithm: 'ed25519', bytes: this.#signer.seed() });
  }

  publicKeyText(): string {
    return publicKeyToText(this.publicKey);
  }
}

/** Verifies with the algorithm the key names. Answers false, never throws, on malformed input. */
export function verifySignature(pk: PublicKey, message: Uint8Array, signature: Uint8Array): boolean {
  if (typeof pk !== 'object' || pk === null) return false;
  switch (pk.algorithm) {
    case 'ed25519':
      return ed25519Verify(pk.bytes, message, signature);
    case 'bls12_381':
      return backend.blsVerify(pk.bytes, message, signature);
    default:
      return false;
  }
}

/**
 * One BLS12-381 aggregate signature by every key over one message (a commit certificate), through the
 * platform backend: blst in Node.js, noble in a browser bundle. False, never a throw, on bad input.
 */
export function verifyAggregateSignature(
  message: Uint8Array,
  blsKeys: Uint8Array[],
  signature: Uint8Array,
): boolean {
  return backend.blsFastAggregateVerify(message, blsKeys, signature);
}

/** True when the key's bytes are a valid point for its algorithm (prime-order, not the identity). */
export function isValidPublicKey(pk: PublicKey): boolean {
  if (typeof pk !== 'object' || pk === null) return false;
  switch (pk.algorithm) {
    case 'ed25519':
      return ed25519IsValidPublicKey(pk.bytes);
    case 'bls12_381':
      return backend.blsIsValidPublicKey(pk.bytes);
    default:
      return false;
  }
}
