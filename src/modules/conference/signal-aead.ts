// XChaCha20-Poly1305-IETF, the AEAD of signalling envelope v1 (signal-envelope.ts has the format), with
// the pure-JS @noble/ciphers. signal-envelope.ts imports this module on first seal or open: it shares no
// code with the rest of the SDK, so a bundler that splits chunks puts it in a chunk of its own.
import { xchacha20poly1305 } from '@noble/ciphers/chacha';

/** XChaCha20-Poly1305-IETF, combined mode (ciphertext ‖ tag). */
export function aeadSeal(
  key: Uint8Array,
  nonce: Uint8Array,
  ad: Uint8Array,
  plaintext: Uint8Array,
): Uint8Array {
  return xchacha20poly1305(key, nonce, ad).encrypt(plaintext);
}

/** The plaintext, or undefined when the tag does not verify. */
export function aeadOpen(
  key: Uint8Array,
  nonce: Uint8Array,
  ad: Uint8Array,
  sealed: Uint8Array,
): Uint8Array | undefined {
  try {
    return xchacha20poly1305(key, nonce, ad).decrypt(sealed);
  } catch {
    return undefined;
  }
}
