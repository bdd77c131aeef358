// Transaction receipts: the node's signed acknowledgement that it admitted and queued
// a transaction. The signature (Ed25519, node key) covers the hash of the receipt payload's encoding.

import type { Infer } from '../codec/codec.js';
import { struct } from '../codec/compound.js';
import { encode } from '../codec/frame.js';
import { varuint } from '../codec/primitives.js';
import { Writer } from '../codec/writer.js';
import { hash } from '../crypto/hash.js';
import { Hash, HashBytes, PublicKeyText, SignatureBytes } from './keys.js';

export const ReceiptPayloadCodec = struct('ReceiptPayload', {
  txHash: Hash,
  submittedAtMs: varuint,
  submittedAtHeight: varuint,
  nodePublicKey: PublicKeyText,
});
export type ReceiptPayload = Infer<typeof ReceiptPayloadCodec>;

export const ReceiptCodec = struct('Receipt', { payload: ReceiptPayloadCodec, signature: SignatureBytes });
export type Receipt = Infer<typeof ReceiptCodec>;

export function receiptMessage(p: ReceiptPayload): Uint8Array {
  return hash(encode(ReceiptPayloadCodec, p));
}

/** Bytes a receipt payload's encoding takes besides the node key: the hash and two varints at most. */
const RECEIPT_FIXED_BYTES_MAX = 32 + 10 + 10;

/**
 * The message a node signs for each receipt, for one node key: `receiptMessage` without the text
 * conversions. A struct's encoding is its fields' encodings in order (docs/codec.md §4.4), so the key's
 * encoding is made once here and appended after the hash and the two varints of each receipt.
 */
export function receiptMessages(
  nodePublicKey: string,
): (txHash: Uint8Array, submittedAtMs: number, submittedAtHeight: number) => Uint8Array {
  const keyBytes = encode(PublicKeyText, nodePublicKey);
  // One buffer for every receipt: each message is hashed before the call returns.
  const w = new Writer(RECEIPT_FIXED_BYTES_MAX + keyBytes.length);
  return (txHash, submittedAtMs, submittedAtHeight) => {
    w.pos = 0;
    HashBytes.encode(w, txHash);
    w.varuint(submittedAtMs);
    w.varuint(submittedAtHeight);
    w.bytes(keyBytes);
    return hash(w.finish());
  };
}
