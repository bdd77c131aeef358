// The Node.js crypto backend (the `default` target of `#crypto-backend`): libsodium through the
// native `sodium-native` addon for BLAKE2b-256 and Ed25519, and native blst for BLS12-381. It is
// the node's hot path (docs/design/dependencies.md: ~25k Ed25519 verifications/s per core against ~500 for
// pure-JS noble), so nothing here may be replaced by the browser backend on the server.
//
// libsodium's crypto_sign_verify_detached is strict (README "Backends and why"): it rejects
// S >= L (RFC 8032 §5.1.7), non-canonical and small-order public keys, a small-order R, and
// compares R byte for byte with the recomputed canonical encoding (cofactorless equation).
import sodium from 'sodium-native';
import type { CryptoBackend } from './backend.js';
import { blsFastAggregateVerify, blsIsValidPublicKey, blsVerify } from './bls.js';

const PUBLIC_KEY_BYTES = 32;
const EXPANDED_SECRET_BYTES = 64;
const SIGNATURE_BYTES = 64;
const HASH_BYTES = 32;

export const backend: CryptoBackend = {
  info: {
    platform: 'node',
    ed25519: 'libsodium (sodium-native)',
    blake2b: 'libsodium crypto_generichash (sodium-native)',
    bls: true,
  },
  blake2b256(data) {
    const out = new Uint8Array(HASH_BYTES);
    sodium.crypto_generichash(out, data);
    return out;
  },
  ed25519FromSeed(seed) {
    const publicKey = new Uint8Array(PUBLIC_KEY_BYTES);
    const secret = new Uint8Array(EXPANDED_SECRET_BYTES);
    sodium.crypto_sign_seed_keypair(publicKey, secret, seed);
    return { publicKey, secret };
  },
  ed25519Sign(secret, message) {
    const sig = new Uint8Array(SIGNATURE_BYTES);
    sodium.crypto_sign_detached(sig, message, secret);
    return sig;
  },
  ed25519Verify(publicKey, message, signature) {
    return sodium.crypto_sign_verify_detached(signature, message, publicKey);
  },
  ed25519IsValidPoint(publicKey) {
    return sodium.crypto_core_ed25519_is_valid_point(publicKey);
  },
  blsVerify,
  blsIsValidPublicKey,
  blsFastAggregateVerify,
};
