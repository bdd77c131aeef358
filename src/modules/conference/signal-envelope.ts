// Signalling envelope v1 (docs/conference.md "Signalling"): a WebRTC offer or answer encrypted to one
// account, so the node that stores and relays it sees metadata only. Both sides use the pure-JS @noble
// libraries (the same code in Node and in a browser, no WebAssembly); the bytes are libsodium's
// constructions, which the envelope was first written with (signal-envelope.test.ts keeps a vector):
//
//   recipient key   the recipient account's Ed25519 public key (part of its id) converted to X25519
//                   (the birational map u = (1 + y) / (1 - y), libsodium's crypto_sign_ed25519_pk_to_curve25519);
//                   the recipient converts its secret key alike (clamped first half of SHA-512(seed),
//                   crypto_sign_ed25519_sk_to_curve25519). No extra key registration.
//   key agreement   libsodium's crypto_kx: the sender is the "client" with a fresh ephemeral X25519 key
//                   pair, the recipient the "server". Key = the client's tx key = the server's rx key =
//                   the second half of BLAKE2b-512(X25519(e, R) ‖ E ‖ R) (E ephemeral, R recipient keys).
//   AEAD            XChaCha20-Poly1305-IETF with a random 24-byte nonce (the key is single-use anyway).
//   associated data "torana-signal-v1" ‖ call id ‖ kind ‖ from ‖ to, each text field as a big-endian u16
//                   byte length then its UTF-8 bytes (signalAssociatedData below).
//   plaintext       the sender's Ed25519 signature (64) over associated data ‖ payload, then the payload:
//                   sealing needs no secret, the signature proves who sealed (a node cannot forge an offer).
//   bytes           0x01 (version) ‖ ephemeral public key (32) ‖ nonce (24) ‖ ciphertext with its tag (16).
//
// Opening fails alike for a wrong recipient, another call, kind, sender or recipient in the associated
// data, and any changed byte: the AEAD tag does not verify; then the signature must verify against the
// sender's account key (the crypto backend's strict verification, as the node's). Results are values,
// not exceptions. The AEAD code (signal-aead.ts) is imported on first seal or open, so a bundler that
// splits chunks keeps it out of the startup code of applications that never signal; the key agreement
// (signal-crypto.ts) uses only the Ed25519 and BLAKE2b code the SDK already holds.

import { verifySignature } from '../../crypto/signer.js';
import { parseAccountId } from '../../model/ids.js';
import { parsePublicKey } from '../../model/keys.js';
import { ephemeralKeyPair, randomBytes, sessionKey, x25519Public, x25519Secret } from './signal-crypto.js';

export const SIGNAL_ENVELOPE_VERSION = 1;
export const SIGNAL_AD_TAG = 'torana-signal-v1';
const EPHEMERAL_BYTES = 32;
const NONCE_BYTES = 24;
const TAG_BYTES = 16;
const SIGNATURE_BYTES = 64;
const HEADER_BYTES = 1 + EPHEMERAL_BYTES + NONCE_BYTES;
/** Bytes an envelope adds to its payload (header, signature, AEAD tag). */
export const SIGNAL_ENVELOPE_OVERHEAD = HEADER_BYTES + SIGNATURE_BYTES + TAG_BYTES;
/** Largest envelope: the ledger's bound on `JoinConference.answer` (16 KiB). */
export const SIGNAL_ENVELOPE_BYTES_MAX = 16 * 1024;
export const SIGNAL_PLAINTEXT_BYTES_MAX = SIGNAL_ENVELOPE_BYTES_MAX - SIGNAL_ENVELOPE_OVERHEAD;
const AD_FIELD_BYTES_MAX = 0xffff;

export type SignalKind = 'offer' | 'answer';

/** Who sends what to whom in which call: bound to the ciphertext as associated data. */
export interface SignalContext {
  callId: string;
  kind: SignalKind;
  /** Account id of the sender (the host for offers, the participant for answers). */
  from: string;
  /** Account id of the recipient; its Ed25519 key is the one the envelope is encrypted to. */
  to: string;
}

/** The recipient's Ed25519 key pair in libsodium's layout (secret key = seed ‖ public key, 64 bytes). */
export interface SignalKeyPair {
  publicKey: Uint8Array;
  secretKey: Uint8Array;
}

/** Signs as the sender (the SDK's key pairs; src/crypto/signer.ts). */
export interface SignalSigner {
  sign(message: Uint8Array): Uint8Array;
}

export type SignalError =
  | 'signal_recipient_invalid'
  | 'signal_sender_invalid'
  | 'signal_signature_invalid'
  | 'signal_plaintext_too_large'
  | 'signal_context_invalid'
  | 'signal_envelope_malformed'
  | 'signal_envelope_version'
  | 'signal_open_failed';

export type SealResult = { ok: true; envelope: Uint8Array } | { ok: false; code: SignalError };
export type OpenResult = { ok: true; plaintext: Uint8Array } | { ok: false; code: SignalError };

/** Fixed ephemeral key seed and nonce: only for reproducible test vectors. */
export interface SealOptions {
  ephemeralSeed?: Uint8Array;
  nonce?: Uint8Array;
}

const utf8 = new TextEncoder();

/** "torana-signal-v1" ‖ (u16 length ‖ UTF-8) of call id, kind, from, to; undefined if a field is too long. */
export function signalAssociatedData(ctx: SignalContext): Uint8Array | undefined {
  const fields = [ctx.callId, ctx.kind, ctx.from, ctx.to].map((f) => utf8.encode(f));
  if (fields.some((f) => f.length > AD_FIELD_BYTES_MAX)) return undefined;
  const tag = utf8.encode(SIGNAL_AD_TAG);
  const out = new Uint8Array(tag.length + fields.reduce((n, f) => n + 2 + f.length, 0));
  out.set(tag, 0);
  let at = tag.length;
  for (const f of fields) {
    out[at] = f.length >>> 8;
    out[at + 1] = f.length & 0xff;
    out.set(f, at + 2);
    at += 2 + f.length;
  }
  return out;
}

/** The Ed25519 public key inside an account id, or undefined for a malformed or non-Ed25519 id. */
export function accountEd25519Key(account: string): Uint8Array | undefined {
  const signatory = parseAccountId(account)?.signatory;
  const key = signatory === undefined ? undefined : parsePublicKey(signatory);
  return key?.algorithm === 'ed25519' ? key.bytes : undefined;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

const KEY_BYTES = 32;

/** The envelope's key agreement, and its AEAD loaded on first use. */
async function signalCrypto() {
  const { aeadOpen, aeadSeal } = await import('./signal-aead.js');
  return { aeadOpen, aeadSeal, ephemeralKeyPair, randomBytes, sessionKey, x25519Public, x25519Secret };
}

/** Signs `payload` as `ctx.from` (whose key `sender` must hold) and encrypts it to the account `ctx.to`. */
export async function sealSignal(
  ctx: SignalContext,
  payload: Uint8Array,
  sender: SignalSigner,
  opts: SealOptions = {},
): Promise<SealResult> {
  if (payload.length > SIGNAL_PLAINTEXT_BYTES_MAX) return { ok: false, code: 'signal_plaintext_too_large' };
  const ad = signalAssociatedData(ctx);
  if (ad === undefined) return { ok: false, code: 'signal_context_invalid' };
  if (accountEd25519Key(ctx.from) === undefined) return { ok: false, code: 'signal_sender_invalid' };
  const plaintext = concat(sender.sign(concat(ad, payload)), payload);
  const recipient = accountEd25519Key(ctx.to);
  const c = await signalCrypto();
  const x25519Recipient = recipient === undefined ? undefined : c.x25519Public(recipient);
  if (x25519Recipient === undefined) return { ok: false, code: 'signal_recipient_invalid' };
  const eph = c.ephemeralKeyPair(opts.ephemeralSeed);
  const key = c.sessionKey(eph.secretKey, x25519Recipient, eph.publicKey, x25519Recipient);
  eph.secretKey.fill(0);
  if (key === undefined) return { ok: false, code: 'signal_recipient_invalid' };
  const nonce = opts.nonce ?? c.randomBytes(NONCE_BYTES);
  const sealed = c.aeadSeal(key, nonce, ad, plaintext);
  key.fill(0);
  const envelope = new Uint8Array(HEADER_BYTES + sealed.length);
  envelope[0] = SIGNAL_ENVELOPE_VERSION;
  envelope.set(eph.publicKey, 1);
  envelope.set(nonce, 1 + EPHEMERAL_BYTES);
  envelope.set(sealed, HEADER_BYTES);
  return { ok: true, envelope };
}

/** Decrypts an envelope sealed to `recipient` for exactly `ctx`. */
export async function openSignal(
  ctx: SignalContext,
  recipient: SignalKeyPair,
  envelope: Uint8Array,
): Promise<OpenResult> {
  if (envelope.length < SIGNAL_ENVELOPE_OVERHEAD || envelope.length > SIGNAL_ENVELOPE_BYTES_MAX)
    return { ok: false, code: 'signal_envelope_malformed' };
  if (envelope[0] !== SIGNAL_ENVELOPE_VERSION) return { ok: false, code: 'signal_envelope_version' };
  const ad = signalAssociatedData(ctx);
  if (ad === undefined) return { ok: false, code: 'signal_context_invalid' };
  const c = await signalCrypto();
  const pk = recipient.publicKey.length === KEY_BYTES ? c.x25519Public(recipient.publicKey) : undefined;
  const sk = recipient.secretKey.length === 2 * KEY_BYTES ? c.x25519Secret(recipient.secretKey) : undefined;
  if (pk === undefined || sk === undefined) return { ok: false, code: 'signal_recipient_invalid' };
  const ephemeral = envelope.subarray(1, 1 + EPHEMERAL_BYTES);
  const key = c.sessionKey(sk, ephemeral, ephemeral, pk);
  sk.fill(0);
  if (key === undefined) return { ok: false, code: 'signal_open_failed' };
  const nonce = envelope.subarray(1 + EPHEMERAL_BYTES, HEADER_BYTES);
  const plaintext = c.aeadOpen(key, nonce, ad, envelope.subarray(HEADER_BYTES));
  key.fill(0);
  if (plaintext === undefined || plaintext.length < SIGNATURE_BYTES)
    return { ok: false, code: 'signal_open_failed' };
  const sender = accountEd25519Key(ctx.from);
  if (sender === undefined) return { ok: false, code: 'signal_sender_invalid' };
  const payload = plaintext.subarray(SIGNATURE_BYTES);
  const signature = plaintext.subarray(0, SIGNATURE_BYTES);
  return verifySignature({ algorithm: 'ed25519', bytes: sender }, concat(ad, payload), signature)
    ? { ok: true, plaintext: payload }
    : { ok: false, code: 'signal_signature_invalid' };
}
