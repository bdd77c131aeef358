// The signed-operator request layout. The signature is Ed25519 over the UTF-8 bytes of
//
//   torana-operator-v1 \n chain-id \n node-key \n METHOD \n path \n sorted-query \n hex(sha256(body)) \n timestamp \n nonce
//
// The first three lines bind the request to one node: a request signed for one node does not
// verify at another node that trusts the same operator key, or at a node of another chain. `node-key` is
// the node's public key text (`peer_id` in `/v1/consensus/keys`, `node_key` in submission receipts).
// The six lines after them are the signed app request's (request-text.ts: path as received, sorted query,
// lowercase hex body hash, timestamp in ms, nonce of 16–64 characters of [A-Za-z0-9_-]).
// The SDK, the CLI and the tests sign with signOperatorRequest; the gateway verifies in operator-auth.ts.

import { createHash, randomBytes } from 'node:crypto';
import { ed25519KeyPairFromSeed, ed25519Sign } from '../crypto/ed25519.js';
import { publicKeyToText } from '../crypto/keys.js';
import { toHex } from '../util/hex.js';
import { REQUEST_NONCE, type RequestTextParts, requestLines } from './request-text.js';

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

export const OPERATOR_NONCE = REQUEST_NONCE;

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

export interface OperatorMessageParts extends OperatorAudience, RequestTextParts {}

export function operatorMessage(parts: OperatorMessageParts): Uint8Array {
  const text = [OPERATOR_MESSAGE_TAG, parts.chainId, parts.nodeKey, requestLines(parts)].join('\n');
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
