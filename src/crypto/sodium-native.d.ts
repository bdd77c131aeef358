// Minimal type declarations for the parts of `sodium-native` (libsodium bindings) this folder uses.
// The package ships no types; every function below asserts on argument types and lengths and
// throws on mismatch, so the callers in this folder check lengths before calling.
declare module 'sodium-native' {
  type Bytes = Uint8Array;
  interface Sodium {
    readonly crypto_generichash_BYTES: number;
    readonly crypto_sign_BYTES: number;
    readonly crypto_sign_PUBLICKEYBYTES: number;
    readonly crypto_sign_SECRETKEYBYTES: number;
    readonly crypto_sign_SEEDBYTES: number;
    crypto_generichash(output: Bytes, input: Bytes, key?: Bytes): void;
    crypto_sign_seed_keypair(pk: Bytes, sk: Bytes, seed: Bytes): void;
    crypto_sign_detached(sig: Bytes, m: Bytes, sk: Bytes): void;
    crypto_sign_verify_detached(sig: Bytes, m: Bytes, pk: Bytes): boolean;
    crypto_core_ed25519_is_valid_point(p: Bytes): boolean;
    randombytes_buf(buffer: Bytes): void;
    sodium_memzero(buffer: Bytes): void;
  }
  const sodium: Sodium;
  export default sodium;
}
