// Public keys, signatures and hashes as data-model types (docs/data-model.md §Keys).
// Text form of a public key: multihash-style hex with an algorithm prefix ('ed0120…', 'ea0130…').

import type { Codec } from '../codec/codec.js';
import { enumOf } from '../codec/compound.js';
import { CodecError } from '../codec/errors.js';
import { bytes, fixedBytes } from '../codec/primitives.js';
import { textType } from '../codec/text.js';
import type { Writer } from '../codec/writer.js';
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
export const ED25519_TEXT = { prefix: 'ed0120', chars: 6 + 64 } as const;
export const BLS_TEXT = { prefix: 'ea0130', chars: 6 + 96 } as const;

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

/**
 * Writes the wire form (PublicKeyBytes: tag, then the key) of a canonical key text straight from its hex
 * digits; false, having written nothing, when `text` is not canonical.
 */
export function writeCanonicalKey(w: Writer, text: string): boolean {
  return writeCanonicalKeyAt(w, text, 0, text.length);
}

/**
 * The same for the key text text[from, to) (inside an account or asset id): read in place, no substring,
 * checked and converted in one pass. False, the writer's position unmoved, when it is not canonical.
 */
export function writeCanonicalKeyAt(w: Writer, text: string, from: number, to: number): boolean {
  const chars = to - from;
  const form = chars === ED25519_TEXT.chars ? ED25519_TEXT : chars === BLS_TEXT.chars ? BLS_TEXT : undefined;
  if (form === undefined || !text.startsWith(form.prefix, from)) return false;
  const n = (form.chars - form.prefix.length) / 2;
  w.ensure(1 + n);
  const b = w.buf;
  // The key's bytes go after the one-byte tag, which is written last: a bad digit returns false with
  // the writer's position unmoved, so nothing counts as written.
  const p = w.pos + 1;
  for (let i = 0, c = from + form.prefix.length; i < n; i++, c += 2) {
    const x = text.charCodeAt(c);
    const y = text.charCodeAt(c + 1);
    // Characters above 0x7f are never digits; the table covers ASCII.
    const hi = x < 0x80 ? UPPER_HEX_DIGIT[x]! : -1;
    const lo = y < 0x80 ? UPPER_HEX_DIGIT[y]! : -1;
    if ((hi | lo) < 0) return false;
    b[p + i] = (hi << 4) | lo;
  }
  b[p - 1] = form === ED25519_TEXT ? 0 : 1;
  w.pos = p + n;
  return true;
}

/** The value of each ASCII character as a canonical (0-9, A-F) hex digit, or -1. */
const UPPER_HEX_DIGIT = new Int8Array(128).fill(-1);
for (let i = 0; i < 16; i++) UPPER_HEX_DIGIT['0123456789ABCDEF'.charCodeAt(i)] = i;

/** The canonical text of a public key given in any accepted text form; undefined when malformed. */
export function canonicalPublicKeyText(text: string): string | undefined {
  if (isCanonicalPublicKeyText(text)) return text;
  const k = parsePublicKey(text);
  return k === undefined ? undefined : publicKeyToText(k);
}

/**
 * The texts of recently read keys, by their bytes. The same few keys come back in almost every
 * transaction (signatories, authorities, account ids inside asset ids), and printing one is 64–96 hex
 * digits. A direct-mapped cache: a key's first bytes pick one of KEY_TEXT_MEMO_MAX slots, and a slot
 * holds the last key read there (its bytes in one flat array, compared in full) and its text. A miss
 * allocates nothing but the new text, so a stream of new keys costs no more than printing them
 * (the memo must not tax blocks whose keys never recur); memory is fixed.
 */
export const KEY_TEXT_MEMO_MAX = 4096;

class PrintedKeys {
  readonly bytes: number;
  /**
   * Slot i's key is keys[i * bytes, (i + 1) * bytes); its text is texts[i] (undefined when empty).
   * Allocated on first use (up to 192 KiB), so importing the model costs nothing until keys are read.
   */
  private keys = new Uint8Array(0);
  private texts: (string | undefined)[] = [];
  /** The text's character codes: the prefix, then two hex digits per byte (filled per miss). */
  private readonly codes: number[];

  constructor(form: { prefix: string; chars: number }) {
    this.bytes = (form.chars - form.prefix.length) / 2;
    this.codes = Array.from({ length: form.chars }, (_, i) => form.prefix.charCodeAt(i) || 0);
  }

  /** The text of the key in buf[at, at + this.bytes) (bounds checked by the caller). */
  print(buf: Uint8Array, at: number): string {
    const n = this.bytes;
    if (this.texts.length === 0) {
      this.keys = new Uint8Array(KEY_TEXT_MEMO_MAX * n);
      this.texts = new Array<string | undefined>(KEY_TEXT_MEMO_MAX).fill(undefined);
    }
    const slot = (buf[at]! | (buf[at + 1]! << 8)) & (KEY_TEXT_MEMO_MAX - 1);
    const keys = this.keys;
    const base = slot * n;
    const known = this.texts[slot];
    if (known !== undefined) {
      let same = true;
      for (let i = 0; i < n; i++) {
        if (keys[base + i] !== buf[at + i]) {
          same = false;
          break;
        }
      }
      if (same) return known;
    }
    const codes = this.codes;
    for (let i = 0, c = codes.length - 2 * n; i < n; i++, c += 2) {
      const b = buf[at + i]!;
      keys[base + i] = b;
      codes[c] = UPPER_HEX_CODE[b >> 4]!;
      codes[c + 1] = UPPER_HEX_CODE[b & 15]!;
    }
    // One native call over the codes: no intermediate strings (the prefix and digits are ASCII).
    const text = String.fromCharCode.apply(null, codes);
    this.texts[slot] = text;
    return text;
  }
}

/** The character codes of the upper-case hex digits. */
export const UPPER_HEX_CODE = Array.from('0123456789ABCDEF', (c) => c.charCodeAt(0));

const ED25519_PRINTED = new PrintedKeys(ED25519_TEXT);
const BLS_PRINTED = new PrintedKeys(BLS_TEXT);

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
  encodeText: (w, text) => writeCanonicalKey(w, text),
  // Every transaction carries keys (signatory, authority, account ids): read the tag and print the hex
  // from the input bytes, without copying them into a PublicKeyBytes value first.
  decodeText(r) {
    const at = r.pos;
    const tag = r.varuint();
    const memo = tag === 0 ? ED25519_PRINTED : tag === 1 ? BLS_PRINTED : undefined;
    if (memo === undefined)
      throw new CodecError('codec_invalid_tag', `PublicKeyBytes: unknown tag ${tag}`, at);
    r.enter();
    r.need(memo.bytes);
    const text = memo.print(r.buf, r.pos);
    r.pos += memo.bytes;
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

/** A BLS12-381 proof of possession: the key's signature over its own public key (crypto/bls.ts). */
export const BlsPopBytes = fixedBytes(96);
