// The signed-operator request layout (reference-notes §4). The signature is Ed25519 over the UTF-8 bytes of
//
//   torana-operator-v1 \n chain-id \n node-key \n METHOD \n path \n sorted-query \n hex(sha256(body)) \n timestamp \n nonce
//
// The first three lines bind the request to one node (issue 10 §9): a request signed for one node does not
// verify at another node that trusts the same operator key, or at a node of another chain. `node-key` is
// the node's public key text (`peer_id` in `/v1/consensus/keys`, `node_key` in submission receipts).
// where `path` is the request path as received (percent-encoding untouched), `sorted-query` is the raw
// `k=v` pairs of the query string sorted by key then value (plain code-unit order) and joined by `&`,
// the body hash is lowercase hex (the hash of the empty string when there is no body), `timestamp` is
// milliseconds since the epoch in decimal, and `nonce` is 16–64 characters of [A-Za-z0-9_-].
// The SDK, the CLI and the tests sign with signOperatorRequest; the gateway verifies in operator-auth.ts.

import { createHash, randomBytes } from 'node:crypto';
import { ed25519KeyPairFromSeed, ed25519Sign } from '../crypto/ed25519.js';
import { publicKeyToText } from '../crypto/keys.js';
import { toHex } from '../util/hex.js';

export const OPERATOR_KEY_HEADER = 'x-ledger-operator-key';
export const OPERATOR_TIMESTAMP_HEADER = 'x-ledger-operator-timestamp';
export const OPERATOR_NONCE_HEADER = 'x-ledger-operator-nonce';
export const OPERATOR_SIGNATURE_HEADER = 'x-ledger-operator-signature';

export const OPERATOR_HEADERS: readonly string[] = [
  OPERATOR_KEY_HEADER,
  OPERATOR_TIMESTAMP_HEADER,
  OPERATOR_NONCE_HEADER,
  OPERATOR_SIGNATURE_HEADER,
];

export const OPERATOR_NONCE = /^[A-Za-z0-9_-]{16,64}$/;

/** Raw `k=v` pairs sorted by key, then value; a pair without `=` counts as an empty value. */
export function sortedQuery(rawQuery: string): string {
  const pairs = rawQuery
    .split('&')
    .filter((p) => p !== '')
    .map((p) => {
      const eq = p.indexOf('=');
      return eq < 0 ? ([p, ''] as const) : ([p.slice(0, eq), p.slice(eq + 1)] as const);
    });
  pairs.sort(([ka, va], [kb, vb]) => (ka < kb ? -1 : ka > kb ? 1 : va < vb ? -1 : va > vb ? 1 : 0));
  return pairs.map(([k, v]) => `${k}=${v}`).join('&');
}

export function sha256Hex(body: Uint8Array): string {
  return createHash('sha256').update(body).digest('hex');
}

/** Domain separation: no other signed text of the project starts with this line. */
export const OPERATOR_MESSAGE_TAG = 'torana-operator-v1';

/** The node a request is meant for. */
export interface OperatorAudience {
  chainId: string;
  /** The node's public key text (`ed0120…`): `peer_id` in `/v1/consensus/keys`. */
  nodeKey: string;
}

export interface OperatorMessageParts extends OperatorAudience {
  method: string;
  /** Path and optional query, exactly as sent on the request line (`/v1/x?b=2&a=1`). */
  url: string;
  bodySha256Hex: string;
  timestampMs: number;
  nonce: string;
}

export function operatorMessage(parts: OperatorMessageParts): Uint8Array {
  const q = parts.url.indexOf('?');
  const path = q < 0 ? parts.url : parts.url.slice(0, q);
  const query = q < 0 ? '' : sortedQuery(parts.url.slice(q + 1));
  const text = [
    OPERATOR_MESSAGE_TAG,
    parts.chainId,
    parts.nodeKey,
    parts.method.toUpperCase(),
    path,
    query,
    parts.bodySha256Hex,
    String(parts.timestampMs),
    parts.nonce,
  ].join('\n');
  return new TextEncoder().encode(text);
}

export interface SignOperatorRequestInput extends OperatorAudience {
  method: string;
  url: string;
  body?: Uint8Array | string;
  /** The operator's 32-byte Ed25519 seed. */
  seed: Uint8Array;
  timestampMs?: number;
  nonce?: string;
}

/** The four headers that authenticate one operator request. */
export function signOperatorRequest(input: SignOperatorRequestInput): Record<string, string> {
  const body =
    typeof input.body === 'string' ? new TextEncoder().encode(input.body) : (input.body ?? new Uint8Array());
  const timestampMs = input.timestampMs ?? Date.now();
  const nonce = input.nonce ?? randomBytes(18).toString('base64url');
  const { publicKey } = ed25519KeyPairFromSeed(input.seed);
  const message = operatorMessage({
    chainId: input.chainId,
    nodeKey: input.nodeKey,
    method: input.method,
    url: input.url,
    bodySha256Hex: sha256Hex(body),
    timestampMs,
    nonce,
  });
  return {
    [OPERATOR_KEY_HEADER]: publicKeyToText({ algorithm: 'ed25519', bytes: publicKey }),
    [OPERATOR_TIMESTAMP_HEADER]: String(timestampMs),
    [OPERATOR_NONCE_HEADER]: nonce,
    [OPERATOR_SIGNATURE_HEADER]: toHex(ed25519Sign(input.seed, message)),
  };
}
