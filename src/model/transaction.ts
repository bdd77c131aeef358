// Transactions (docs/data-model.md §Transactions). The client signs the hash of the payload's canonical
// encoding; the transaction hash is taken over the whole signed transaction.

import type { Infer } from '../codec/codec.js';
import { named, option, seq, struct } from '../codec/compound.js';
import { encode } from '../codec/frame.js';
import { string, u32, varuint } from '../codec/primitives.js';
import { hash } from '../crypto/hash.js';
import { AccountId } from './ids.js';
import { InstructionCodec } from './instructions.js';
import { SignatureBytes } from './keys.js';
import { MetadataCodec } from './metadata.js';

export const CHAIN_ID_BYTES_MAX = 64;

export const TransactionPayloadCodec = struct('TransactionPayload', {
  chainId: string(CHAIN_ID_BYTES_MAX),
  authority: AccountId,
  creationTimeMs: varuint,
  instructions: seq(InstructionCodec),
  ttlMs: option(varuint),
  nonce: option(u32),
  metadata: MetadataCodec,
});
export type TransactionPayload = Infer<typeof TransactionPayloadCodec>;

export const SignedTransactionCodec = struct('SignedTransaction', {
  payload: TransactionPayloadCodec,
  signature: SignatureBytes,
});
export type SignedTransaction = Infer<typeof SignedTransactionCodec>;

/**
 * Many signed transactions in one message (POST /v1/transactions/batch, the WebSocket submission
 * channel): a sequence (docs/codec.md §4.2), so each item is exactly a transaction's canonical encoding.
 */
export const SignedTransactionBatchCodec = named('SignedTransactionBatch', seq(SignedTransactionCodec));

/** The 32-byte message a client signs: the hash of the payload's canonical encoding. */
export function payloadHash(payload: TransactionPayload): Uint8Array {
  return hash(encode(TransactionPayloadCodec, payload));
}

/** The transaction hash: over the whole signed transaction's canonical encoding. */
export function transactionHash(tx: SignedTransaction): Uint8Array {
  return hash(encode(SignedTransactionCodec, tx));
}

/** Signs a payload: the signature covers the payload hash (docs/codec.md §8). */
export function signTransaction(
  payload: TransactionPayload,
  signer: { sign(message: Uint8Array): Uint8Array },
): SignedTransaction {
  return { payload, signature: signer.sign(payloadHash(payload)) };
}
