// The Connect pairing and channel (docs/connect.md "Pairing" and "Frames"), without sockets: key
// agreement, the pairing URI, and the sealing of messages with sequence numbers. Browser-safe (noble
// libraries only, no Node built-in).
//
// The app makes an X25519 key pair; `sid` = base64url(SHA-256(app public key)). It shows the pairing URI
// `torana-connect:<sid>?node=<node URL>&token=<wallet token>&pk=<app public key>`. The wallet checks that
// the key hashes to `sid`, makes its own key pair and answers with a hello frame carrying its public key.
// Both take the X25519 shared secret through HKDF-SHA256 (salt: the sid's 32 bytes; info:
// "torana-connect v1" ‖ app key ‖ wallet key) to 64 bytes: the app→wallet key, then the wallet→app key.
// Every frame after that is sealed with ChaCha20-Poly1305 under its direction's key, the nonce being its
// sequence number (4 zero bytes ‖ 8 bytes big-endian) and the associated data the sid's bytes and the
// frame header; a receiver takes only the next sequence number, so a replayed, dropped or reordered
// frame is refused.

import { chacha20poly1305 } from '@noble/ciphers/chacha';
import { x25519 } from '@noble/curves/ed25519';
import { hkdf } from '@noble/hashes/hkdf';
import { sha256 } from '@noble/hashes/sha2';

export const CONNECT_URI_SCHEME = 'torana-connect:';
/** The subprotocol offered next to the token (browsers cannot set other upgrade headers). */
export const CONNECT_SUBPROTOCOL = 'torana-connect.v1';

const FRAME_HELLO = 1;
const FRAME_SEALED = 2;
const KEY_BYTES = 32;
const SEQ_BYTES = 8;
const INFO = new TextEncoder().encode('torana-connect v1');

export class ConnectError extends Error {
  override readonly name = 'ConnectError';
  constructor(
    readonly code:
      | 'uri_invalid'
      | 'sid_mismatch'
      | 'frame_invalid'
      | 'sequence'
      | 'decrypt'
      | 'closed'
      | 'rejected'
      | 'node',
    message: string,
  ) {
    super(message);
  }
}

export function toBase64url(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function fromBase64url(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new ConnectError('uri_invalid', 'not base64url');
  const s = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

export interface ConnectKeyPair {
  readonly secretKey: Uint8Array;
  readonly publicKey: Uint8Array;
}

export function connectKeyPair(secretKey: Uint8Array = x25519.utils.randomPrivateKey()): ConnectKeyPair {
  return { secretKey, publicKey: x25519.getPublicKey(secretKey) };
}

/** The session id the app computes: base64url of SHA-256 of its public key. */
export function connectSid(appPublicKey: Uint8Array): string {
  return toBase64url(sha256(appPublicKey));
}

export interface PairingUri {
  readonly sid: string;
  /** The node's base URL (http or https). */
  readonly node: string;
  readonly token: string;
  readonly appPublicKey: Uint8Array;
}

/** The URI the app shows: the node's `wallet_uri` with the app's public key added. */
export function pairingUri(walletUri: string, appPublicKey: Uint8Array): string {
  return `${walletUri}&pk=${toBase64url(appPublicKey)}`;
}

/** Reads a pairing URI and checks that its key is the one its sid names. */
export function parsePairingUri(uri: string): PairingUri {
  if (!uri.startsWith(CONNECT_URI_SCHEME)) throw new ConnectError('uri_invalid', 'not a torana-connect URI');
  const rest = uri.slice(CONNECT_URI_SCHEME.length);
  const q = rest.indexOf('?');
  const sid = q < 0 ? rest : rest.slice(0, q);
  const params = new URLSearchParams(q < 0 ? '' : rest.slice(q + 1));
  const node = params.get('node') ?? '';
  const token = params.get('token') ?? '';
  const pk = params.get('pk') ?? '';
  if (!/^[A-Za-z0-9_-]{43}$/.test(sid) || !/^https?:\/\//.test(node) || token === '' || pk === '')
    throw new ConnectError('uri_invalid', 'the pairing URI needs sid, node, token and pk');
  const appPublicKey = fromBase64url(pk);
  if (appPublicKey.length !== KEY_BYTES) throw new ConnectError('uri_invalid', 'pk is not 32 bytes');
  if (connectSid(appPublicKey) !== sid)
    throw new ConnectError('sid_mismatch', "the app's key does not hash to the session id");
  return { sid, node, token, appPublicKey };
}

/** The WebSocket URL of a side of a session on `node`. */
export function relaySocketUrl(node: string, sid: string, role: 'app' | 'wallet'): string {
  return `${node.replace(/\/+$/, '').replace(/^http/, 'ws')}/v1/connect/ws?sid=${sid}&role=${role}`;
}

function nonceOf(seq: number): Uint8Array {
  const n = new Uint8Array(12);
  new DataView(n.buffer).setBigUint64(4, BigInt(seq));
  return n;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** One side's sealing and opening state (keys and the two sequence numbers). */
export class ConnectChannel {
  private sendSeq = 0;
  private recvSeq = 0;
  private readonly sid: Uint8Array;
  private readonly sendKey: Uint8Array;
  private readonly recvKey: Uint8Array;

  constructor(
    readonly role: 'app' | 'wallet',
    sid: string,
    own: ConnectKeyPair,
    peerPublicKey: Uint8Array,
  ) {
    this.sid = fromBase64url(sid);
    const [appKey, walletKey] =
      role === 'app' ? [own.publicKey, peerPublicKey] : [peerPublicKey, own.publicKey];
    const shared = x25519.getSharedSecret(own.secretKey, peerPublicKey);
    const okm = hkdf(sha256, shared, this.sid, concat(INFO, appKey, walletKey), 2 * KEY_BYTES);
    const appToWallet = okm.slice(0, KEY_BYTES);
    const walletToApp = okm.slice(KEY_BYTES);
    this.sendKey = role === 'app' ? appToWallet : walletToApp;
    this.recvKey = role === 'app' ? walletToApp : appToWallet;
  }

  private sealWith(kind: number, prefix: Uint8Array, message: unknown): Uint8Array {
    const seq = this.sendSeq++;
    const header = concat(Uint8Array.of(kind), prefix, nonceOf(seq).slice(4));
    const plain = new TextEncoder().encode(JSON.stringify(message));
    const sealed = chacha20poly1305(this.sendKey, nonceOf(seq), concat(this.sid, header)).encrypt(plain);
    return concat(header, sealed);
  }

  /** A sealed frame of `message` (JSON), with the next sequence number. */
  seal(message: unknown): Uint8Array {
    return this.sealWith(FRAME_SEALED, new Uint8Array(0), message);
  }

  /** The wallet's first frame: its public key in the clear, and `message` sealed (sequence 0). */
  hello(publicKey: Uint8Array, message: unknown): Uint8Array {
    return this.sealWith(FRAME_HELLO, publicKey, message);
  }

  /** Opens the next frame: refused unless it decrypts and carries the next sequence number. */
  open(frame: Uint8Array): unknown {
    const prefix = frame[0] === FRAME_HELLO ? KEY_BYTES : frame[0] === FRAME_SEALED ? 0 : -1;
    const headerBytes = 1 + prefix + SEQ_BYTES;
    if (prefix < 0 || frame.length < headerBytes + 16)
      throw new ConnectError('frame_invalid', 'not a Connect frame');
    const header = frame.slice(0, headerBytes);
    const seq = Number(new DataView(header.buffer).getBigUint64(1 + prefix));
    if (seq !== this.recvSeq)
      throw new ConnectError(
        'sequence',
        `frame ${seq} where ${this.recvSeq} was due (replayed or reordered)`,
      );
    let plain: Uint8Array;
    try {
      plain = chacha20poly1305(this.recvKey, nonceOf(seq), concat(this.sid, header)).decrypt(
        frame.slice(headerBytes),
      );
    } catch {
      throw new ConnectError('decrypt', 'the frame does not decrypt');
    }
    this.recvSeq += 1;
    return JSON.parse(new TextDecoder().decode(plain));
  }
}

/** The wallet's public key in its hello frame (undefined for any other frame). */
export function helloPublicKey(frame: Uint8Array): Uint8Array | undefined {
  return frame[0] === FRAME_HELLO && frame.length > 1 + KEY_BYTES ? frame.slice(1, 1 + KEY_BYTES) : undefined;
}
