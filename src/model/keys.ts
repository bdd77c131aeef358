// Public keys, signatures and hashes as data-model types (docs/data-model.md §Keys).
// Text form of a public key: multihash-style hex with an algorithm prefix ('ed0120…', 'ea0130…').

import type { Codec } from '../codec/codec.js';
import { enumOf } from '../codec/compound.js';
import { CodecError } from '../codec/errors.js';
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

/** Canonical text prefixes and their lengths (crypto/keys.ts: lower-case prefix, upper-case hex). */
const ED25519_TEXT = { prefix: 'ed0120', chars: 6 + 64 } as const;
const BLS_TEXT = { prefix: 'ea0130', chars: 6 + 96 } as const;

/**
 * True when `text` is already the canonical text of a public key, so parsing and printing it again
 * would give `text` back. A scan of the characters, no allocation: ids are checked on every transaction.
 */
export function isCanonicalPublicKeyText(text: string): boolean {
  const form =
    text.length === ED25519_TEXT.chars ? ED25519_TEXT : text.length === BLS_TEXT.chars ? BLS_TEXT : undefined;
  if (form === undefined || !text.startsWith(form.prefix)) return false;
  for (let i = form.prefix.length; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // 0-9 or A-F: upper-case hex is the canonical print (publicKeyToText).
    if (!((c >= 48 && c <= 57) || (c >= 65 && c <= 70))) return false;
  }
  return true;
}

/** The canonical text of a public key given in any accepted text form; undefined when malformed. */
export function canonicalPublicKeyText(text: string): string | undefined {
  if (isCanonicalPublicKeyText(text)) return text;
  const k = parsePublicKey(text);
  return k === undefined ? undefined : publicKeyToText(k);
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
  // Every transaction carries keys (signatory, authority, account ids): read the tag and print the hex
  // from the input bytes, without copying them into a PublicKeyBytes value first.
  decodeText(r) {
    const at = r.pos;
    const tag = r.varuint();
    const form = tag === 0 ? ED25519_TEXT : tag === 1 ? BLS_TEXT : undefined;
    if (form === undefined)
      throw new CodecError('codec_invalid_tag', `PublicKeyBytes: unknown tag ${tag}`, at);
    r.enter();
    const text = form.prefix + toHex(r.view((form.chars - form.prefix.length) / 2), true);
    r.leave();
    return text;
  },
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
