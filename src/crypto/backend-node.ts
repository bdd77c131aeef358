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
/** V8 keeps a typed array of at most this many bytes inside its heap (no backing store of its own). */
const SMALL_INPUT_BYTES = 64;
// Off-heap scratch for blake2b256: hashing is synchronous and the scratch never escapes.
const digestScratch = Buffer.allocUnsafeSlow(HASH_BYTES);
const inputScratch = Buffer.allocUnsafeSlow(SMALL_INPUT_BYTES);
const smallInputs: Buffer[] = [];
for (let n = 0; n <= SMALL_INPUT_BYTES; n++) smallInputs.push(inputScratch.subarray(0, n));

/**
 * The bytes of `data` (at most SMALL_INPUT_BYTES of them) copied into the off-heap scratch: a view of
 * exactly their length. `set` copies elements, so any other view (a Uint16Array, a DataView) is read
 * through a byte view of its memory first: the digest is always of the bytes, as the addon's.
 */
function smallInput(data: ArrayBufferView, bytes: number): Buffer {
  const view = smallInputs[bytes]!;
  view.set(data instanceof Uint8Array ? data : new Uint8Array(data.buffer, data.byteOffset, bytes));
  return view;
}

/**
 * A larger input as the addon takes it: the view itself, or a copy of its bytes when its memory is a
 * SharedArrayBuffer, which the addon refuses (a small one is copied into the scratch anyway, so both
 * sizes hash it).
 */
function largeInput(data: Uint8Array): Uint8Array {
  return data.buffer instanceof SharedArrayBuffer
    ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength).slice()
    : data;
}

export const backend: CryptoBackend = {
  info: {
    platform: 'node',
    ed25519: 'libsodium (sodium-native)',
    blake2b: 'libsodium crypto_generichash (sodium-native)',
    bls: true,
  },
  blake2b256(data) {
    // The addon reads `.buffer` of what it is given: for a typed array of at most 64 bytes, which V8
    // keeps inside the heap, that moves its bytes to a new backing store of their own (as costly as the
    // hash itself, and a finaliser for the collector). So the digest goes to an off-heap scratch and is
    // copied out, and a small input is copied in first. Sizes are in bytes whatever the view's type
    // (the declared type is Uint8Array; another view gives the digest of its bytes all the same).
    const bytes = data.byteLength;
    const input = bytes <= SMALL_INPUT_BYTES ? smallInput(data, bytes) : largeInput(data);
    sodium.crypto_generichash(digestScratch, input);
    const out = new Uint8Array(HASH_BYTES);
    out.set(digestScratch);
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
