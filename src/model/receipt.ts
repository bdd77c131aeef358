// Transaction receipts (reference-notes §1): the node's signed acknowledgement that it admitted and queued
// a transaction. The signature (Ed25519, node key) covers the hash of the receipt payload's encoding.

import type { Infer } from '../codec/codec.js';
import { struct } from '../codec/compound.js';
import { encode } from '../codec/frame.js';
import { varuint } from '../codec/primitives.js';
import { hash } from '../crypto/hash.js';
import { Hash, PublicKeyText, SignatureBytes } from './keys.js';

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
