// The contract between the crypto layer and its platform backend (the SDK works in Node.js
// and in a browser bundle). hash.ts, ed25519.ts and signer.ts import `#crypto-backend`, which the
// package's `imports` map resolves to backend-node.ts (libsodium, blst) by default and to
// backend-browser.ts (pure-JS noble) under the bundlers' `browser` condition. Both must give the
// same bytes and the same verification answers; backend.test.ts checks that on the same vectors.
//
// Callers check lengths and types before calling (ed25519.ts, signer.ts): a backend function may
// assume well-formed lengths, but must still answer false, never throw, on any bytes of those
// lengths (they are untrusted).

export interface CryptoBackendInfo {
  /** Which backend the `imports` map chose. */
  readonly platform: 'node' | 'browser';
  /** Human-readable implementations, for diagnostics and the SDK README. */
  readonly ed25519: string;
  readonly blake2b: string;
  /** Whether BLS12-381 signatures verify (both backends: native blst, or pure-JS noble in a browser). */
  readonly bls: boolean;
}

export interface CryptoBackend {
  readonly info: CryptoBackendInfo;
  /** BLAKE2b with a 32-byte digest (RFC 7693, digest length in the parameter block). */
  blake2b256(data: Uint8Array): Uint8Array;
  /**
   * RFC 8032 §5.1.5 key generation from a 32-byte seed. `secret` is the 64-byte form the backend
   * signs with: the seed followed by the public key (libsodium's layout, kept on both backends).
   */
  ed25519FromSeed(seed: Uint8Array): { publicKey: Uint8Array; secret: Uint8Array };
  /** RFC 8032 §5.1.6 signing with a `secret` from `ed25519FromSeed`. */
  ed25519Sign(secret: Uint8Array, message: Uint8Array): Uint8Array;
  /** Strict RFC 8032 §5.1.7 verification; lengths are already checked (32-byte key, 64-byte sig). */
  ed25519Verify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean;
  /** Canonical encoding of a prime-order-subgroup point that is not of small order. */
  ed25519IsValidPoint(publicKey: Uint8Array): boolean;
  blsVerify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean;
  blsIsValidPublicKey(publicKey: Uint8Array): boolean;
  /** One aggregate signature by every key over one message (a commit certificate); false, never a throw. */
  blsFastAggregateVerify(message: Uint8Array, publicKeys: Uint8Array[], signature: Uint8Array): boolean;
}
