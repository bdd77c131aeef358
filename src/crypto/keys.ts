// Algorithm-tagged keys and their text forms, multihash style as in the reference ledger: the
// multicodec code as an unsigned LEB128 varint, then the key length as one byte, then the key,
// all in hex. The prefix is lowercase and the key uppercase on output; input accepts either case.
//
//   ed25519-pub      0xed   -> varint ed01, length 0x20 -> 'ed0120' + 64 hex digits
//   bls12_381-g1-pub 0xea   -> varint ea01, length 0x30 -> 'ea0130' + 96 hex digits
//   ed25519-priv     0x1300 -> varint 8026, length 0x20 -> '802620' + 64 hex digits (the seed)
//   bls12_381-g1-priv 0x1309 -> varint 8926, length 0x20 -> '892620' + 64 hex digits
//
// Parsing checks the prefix, the exact length and the hex digits; it does not check that the
// bytes are a valid curve point (that costs a scalar multiplication and verification rejects
// invalid points anyway); see `isValidPublicKey` in signer.ts for callers that want it early.
import { CryptoError } from './errors.js';
import { bytesEqual, fromHex, toHex } from './hex.js';

export type Algorithm = 'ed25519' | 'bls12_381';

export interface PublicKey {
  algorithm: Algorithm;
  bytes: Uint8Array;
}

export interface PrivateKey {
  algorithm: Algorithm;
  bytes: Uint8Array;
}

export interface KeyTextError {
  code: 'invalid_key_text';
  message: string;
}

interface TextForm {
  readonly prefix: string;
  readonly bytes: number;
}

const PUBLIC_FORMS: Readonly<Record<Algorithm, TextForm>> = {
  ed25519: { prefix: 'ed0120', bytes: 32 },
  bls12_381: { prefix: 'ea0130', bytes: 48 },
};

const PRIVATE_FORMS: Readonly<Record<Algorithm, TextForm>> = {
  ed25519: { prefix: '802620', bytes: 32 },
  bls12_381: { prefix: '892620', bytes: 32 },
};

/** Longest key text any form allows; longer input is refused before any work. */
export const KEY_TEXT_CHARS_MAX = 6 + 48 * 2;

const ALGORITHMS: readonly Algorithm[] = ['ed25519', 'bls12_381'];

function keyTextError(message: string): KeyTextError {
  return { code: 'invalid_key_text', message };
}

export function isKeyTextError(x: unknown): x is KeyTextError {
  return typeof x === 'object' && x !== null && (x as { code?: unknown }).code === 'invalid_key_text';
}

function toText(forms: Readonly<Record<Algorithm, TextForm>>, k: PublicKey | PrivateKey): string {
  const form = ALGORITHMS.includes(k.algorithm) ? forms[k.algorithm] : undefined;
  if (form === undefined)
    throw new CryptoError('invalid_key', `unknown key algorithm '${String(k.algorithm)}'`);
  if (!(k.bytes instanceof Uint8Array) || k.bytes.length !== form.bytes) {
    throw new CryptoError('invalid_key', `${k.algorithm} key must be ${form.bytes} bytes`);
  }
  return form.prefix + toHex(k.bytes, true);
}

function fromText(
  forms: Readonly<Record<Algorithm, TextForm>>,
  s: unknown,
  kind: 'public' | 'private',
): { algorithm: Algorithm; bytes: Uint8Array } | KeyTextError {
  if (typeof s !== 'string') return keyTextError(`${kind} key text must be a string`);
  if (s.length > KEY_TEXT_CHARS_MAX) return keyTextError(`${kind} key text is too long`);
  const head = s.slice(0, 6).toLowerCase();
  const algorithm = ALGORITHMS.find((a) => forms[a].prefix === head);
  if (algorithm === undefined) {
    const expected = ALGORITHMS.map((a) => `'${forms[a].prefix}'`).join(' or ');
    return keyTextError(`${kind} key text must start with ${expected}`);
  }
  const form = forms[algorithm];
  const bytes = fromHex(s.slice(6), form.bytes);
  if (bytes === undefined) {
    return keyTextError(
      `${algorithm} ${kind} key text must be '${form.prefix}' + ${form.bytes * 2} hex digits`,
    );
  }
  return { algorithm, bytes };
}

/** ed25519: 'ed0120' + uppercase hex; bls12_381 (G1, compressed): 'ea0130' + uppercase hex. */
export function publicKeyToText(k: PublicKey): string {
  return toText(PUBLIC_FORMS, k);
}

export function publicKeyFromText(s: string): PublicKey | KeyTextError {
  return fromText(PUBLIC_FORMS, s, 'public');
}

/** ed25519: '802620' + uppercase hex of the seed; bls12_381: '892620' + uppercase hex. */
export function privateKeyToText(k: PrivateKey): string {
  return toText(PRIVATE_FORMS, k);
}

/** Error messages never repeat the input, so a mistyped secret does not end up in a log. */
export function privateKeyFromText(s: string): PrivateKey | KeyTextError {
  return fromText(PRIVATE_FORMS, s, 'private');
}

export function publicKeyEquals(a: PublicKey, b: PublicKey): boolean {
  return a.algorithm === b.algorithm && bytesEqual(a.bytes, b.bytes);
}
