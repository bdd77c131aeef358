// The key agreement of signalling envelope v1 (signal-envelope.ts has the format): libsodium's
// constructions computed with the pure-JS @noble libraries. Its code (noble's Ed25519 module, whose X25519
// ladder comes with it, and BLAKE2b) is the code the SDK signs and hashes with, so signal-envelope.ts
// imports it statically; only the AEAD (signal-aead.ts), which shares nothing, is loaded on first use. Were
// this module loaded on first use too, a bundler that splits chunks would move the code it shares with the
// startup code into a third file (a chunk both import), which costs a page more than it saves.
import { ed25519, x25519 } from '@noble/curves/ed25519';
import { blake2b } from '@noble/hashes/blake2';
import { isValidPublicKey } from '../../crypto/signer.js';

export { randomBytes } from '@noble/hashes/utils';

const KEY_BYTES = 32;

function tryOr<T>(work: () => T): T | undefined {
  try {
    return work();
  } catch {
    return undefined;
  }
}

/**
 * crypto_sign_ed25519_pk_to_curve25519: u = (1 + y) / (1 - y); undefined unless the key is a valid
 * prime-order point (libsodium refuses small-order and off-subgroup keys alike).
 */
export function x25519Public(edPublicKey: Uint8Array): Uint8Array | undefined {
  if (!isValidPublicKey({ algorithm: 'ed25519', bytes: edPublicKey })) return undefined;
  return tryOr(() => ed25519.utils.toMontgomery(edPublicKey));
}

/** crypto_sign_ed25519_sk_to_curve25519 of a 64-byte secret key (seed ‖ public key): the clamped SHA-512(seed) half. */
export function x25519Secret(edSecretKey: Uint8Array): Uint8Array | undefined {
  return tryOr(() => ed25519.utils.toMontgomerySecret(edSecretKey.subarray(0, KEY_BYTES)));
}

/**
 * crypto_kx's session key shared by client (ephemeral) and server (recipient): the second half of
 * BLAKE2b-512(q ‖ client public ‖ server public). Undefined when X25519 gives the all-zero point.
 */
export function sessionKey(
  secret: Uint8Array,
  peer: Uint8Array,
  client: Uint8Array,
  server: Uint8Array,
): Uint8Array | undefined {
  const q = tryOr(() => x25519.getSharedSecret(secret, peer));
  if (q === undefined) return undefined;
  const input = new Uint8Array(3 * KEY_BYTES);
  input.set(q, 0);
  input.set(client, KEY_BYTES);
  input.set(server, 2 * KEY_BYTES);
  const keys = blake2b(input, { dkLen: 2 * KEY_BYTES });
  const key = keys.slice(KEY_BYTES);
  q.fill(0);
  input.fill(0);
  keys.fill(0);
  return key;
}

/** An ephemeral X25519 key pair: random, or crypto_kx_seed_keypair's (secret = BLAKE2b-256(seed)). */
export function ephemeralKeyPair(seed: Uint8Array | undefined): {
  secretKey: Uint8Array;
  publicKey: Uint8Array;
} {
  const secretKey =
    seed === undefined ? x25519.utils.randomPrivateKey() : blake2b(seed, { dkLen: KEY_BYTES });
  return { secretKey, publicKey: x25519.getPublicKey(secretKey) };
}
