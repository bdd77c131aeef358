// Public keys, signatures and hashes as data-model types (docs/data-model.md §Keys).
// Text form of a public key: multihash-style hex with an algorithm prefix ('ed0120…', 'ea0130…').

import type { Codec } from '../codec/codec.js';
import { enumOf } from '../codec/compound.js';
import { bytes, fixedBytes } from '../codec/primitives.js';
import { textType } from '../codec/text.js';
import {
  type PublicKey as CryptoPublicKey,
  isKeyTextError,
  publicKeyFromText,
  publicKeyToText,
} from '../crypto/keys.js';
import { fromHex, toHex } from '../util/hex.js';

export const HASH_BYTES = 32;

const PublicKeyBytes = enumOf('PublicKeyBytes', {
  Ed25519: { key: fixedBytes(32) },
  Bls12381: { key: fixedBytes(48) },
});

export function parsePublicKey(text: string): CryptoPublicKey | undefined {
  const k = publicKeyFromText(text);
  return isKeyTextError(k) ? undefined : k;
}

/** A public key in its canonical text form (upper-case hex after the prefix). */
export const PublicKeyText: Codec<string> = textType({
  name: 'PublicKey',
  base: PublicKeyBytes,
  format: "'ed0120' + 64 hex digits (Ed25519) or 'ea0130' + 96 hex digits (BLS12-381 G1)",
  parse: (t) => {
    const k = parsePublicKey(t);
    if (k === undefined) return undefined;
    return k.algorithm === 'ed25519'
      ? { kind: 'Ed25519' as const, key: k.bytes }
      : { kind: 'Bls12381' as const, key: k.bytes };
  },
  print: (v) => publicKeyToText({ algorithm: v.kind === 'Ed25519' ? 'ed25519' : 'bls12_381', bytes: v.key }),
});

/** A 32-byte hash; text and JSON form is lower-case hex. */
export const Hash: Codec<string> = textType<Uint8Array>({
  name: 'Hash',
  base: fixedBytes(HASH_BYTES),
  format: '64 lower-case hex digits',
  parse: (t) => fromHex(t, HASH_BYTES),
  print: (b) => toHex(b),
});

/** Raw hash bytes where the hot path wants no hex conversion (block and transaction internals). */
export const HashBytes = fixedBytes(HASH_BYTES);

/** A signature: 64 bytes for Ed25519, 96 for BLS12-381. */
export const SignatureBytes = bytes(96);
