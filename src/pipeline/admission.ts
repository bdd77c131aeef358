// Admission (reference-notes §1): everything checked before a transaction is queued, in a fixed order so
// the first failing check wins: decoding with limits, chain id, creation time against the allowed clock
// drift, TTL, signing algorithm, signature, then size, instruction and metadata limits.

import type { CodecError } from '../codec/errors.js';
import { decode, encode, unframe } from '../codec/frame.js';
import type { DecodeLimits } from '../codec/limits.js';
import { hash } from '../crypto/hash.js';
import type { Algorithm } from '../crypto/keys.js';
import { parseAccountId } from '../model/ids.js';
import { parsePublicKey } from '../model/keys.js';
import { MetadataCodec } from '../model/metadata.js';
import { type Rejection, reject } from '../model/rejections.js';
import { SCHEMA } from '../model/schema.js';
import { type SignedTransaction, SignedTransactionCodec } from '../model/transaction.js';
import { toHex } from '../util/hex.js';

export interface AdmissionLimits {
  transactionBytesMax: number;
  instructionsMax: number;
  metadataBytesMax: number;
  maxClockDriftMs: number;
  allowedAlgorithms: ReadonlySet<Algorithm>;
  decode: DecodeLimits;
}

export type SignatureCheck = (
  publicKey: Uint8Array,
  message: Uint8Array,
  signature: Uint8Array,
) => Promise<boolean>;

export interface Admitted {
  ok: true;
  tx: SignedTransaction;
  hash: Uint8Array;
  hashHex: string;
  encodedBytes: number;
  /** The signed transaction's canonical encoding as received (a copy), reused when the block is encoded. */
  encoded: Uint8Array;
}

export type AdmissionResult =
  | Admitted
  | { ok: false; kind: 'codec'; error: CodecError }
  | { ok: false; kind: 'rejected'; rejection: Rejection; hashHex?: string };

/** Decodes a framed or bare signed transaction, returning it with the exact payload bytes that were signed. */
export function decodeSignedTransaction(
  body: Uint8Array,
  limits: DecodeLimits,
):
  | { ok: true; tx: SignedTransaction; payloadBytes: Uint8Array; txBytes: Uint8Array }
  | { ok: false; error: CodecError } {
  const u = unframe(SCHEMA, 'SignedTransaction', body);
  if (!u.ok) return u;
  const decoded = decode(SignedTransactionCodec, u.payload, limits);
  if (!decoded.ok) return decoded;
  // The encoding is canonical, so the payload's bytes as received are exactly its canonical encoding:
  // hash them directly instead of re-encoding (docs/codec.md §8). The signature is the last field (a
  // canonical varint length then its bytes) and the whole input was consumed, so the payload ends
  // where the signature's encoding begins: no second decoding pass is needed to find it.
  const signature = decoded.value.signature;
  const payloadEnd = u.payload.length - varuintBytes(signature.length) - signature.length;
  return {
    ok: true,
    tx: decoded.value,
    payloadBytes: u.payload.subarray(0, payloadEnd),
    txBytes: u.payload,
  };
}

/** Bytes of the canonical LEB128 encoding of `n` (docs/codec.md §2). */
function varuintBytes(n: number): number {
  let bytes = 1;
  for (let v = n; v >= 0x80; v = Math.floor(v / 128)) bytes++;
  return bytes;
}

function refused(hashHex: string, rejection: Rejection): AdmissionResult {
  return { ok: false, kind: 'rejected', rejection, hashHex };
}

export async function admitTransaction(
  body: Uint8Array,
  chainId: string,
  nowMs: number,
  limits: AdmissionLimits,
  verify: SignatureCheck,
): Promise<AdmissionResult> {
  if (body.length > limits.transactionBytesMax) {
    return {
      ok: false,
      kind: 'rejected',
      rejection: reject('transaction_too_large', `${body.length} bytes > ${limits.transactionBytesMax}`),
    };
  }
  const d = decodeSignedTransaction(body, limits.decode);
  if (!d.ok) return { ok: false, kind: 'codec', error: d.error };
  const { tx, payloadBytes, txBytes } = d;
  const p = tx.payload;
  const txHash = hash(txBytes);
  // Copied now: the caller's buffer is not ours to keep across the signature check's await.
  const encoded = txBytes.slice();
  const hashHex = toHex(txHash);

  if (p.chainId !== chainId)
    return refused(hashHex, reject('chain_id_mismatch', `chain id "${p.chainId}" is not "${chainId}"`));
  if (p.creationTimeMs > nowMs + limits.maxClockDriftMs) {
    return refused(
      hashHex,
      reject(
        'creation_time_in_future',
        `created ${p.creationTimeMs - nowMs} ms in the future (drift allowed: ${limits.maxClockDriftMs} ms)`,
      ),
    );
  }
  if (p.ttlMs !== undefined && p.creationTimeMs + p.ttlMs <= nowMs) {
    return refused(
      hashHex,
      reject('transaction_expired', `expired ${nowMs - p.creationTimeMs - p.ttlMs} ms ago`),
    );
  }
  const account = parseAccountId(p.authority)!; // decoding validated the id
  const key = parsePublicKey(account.signatory)!;
  if (!limits.allowedAlgorithms.has(key.algorithm))
    return refused(hashHex, reject('algorithm_not_allowed', `algorithm ${key.algorithm} is not allowed`));
  if (!(await verify(key.bytes, hash(payloadBytes), tx.signature)))
    return refused(hashHex, reject('signature_invalid'));
  if (p.instructions.length === 0) return refused(hashHex, reject('no_instructions'));
  if (p.instructions.length > limits.instructionsMax) {
    return refused(
      hashHex,
      reject('too_many_instructions', `${p.instructions.length} instructions > ${limits.instructionsMax}`),
    );
  }
  if (p.metadata.size > 0 && encode(MetadataCodec, p.metadata).length > limits.metadataBytesMax) {
    return refused(
      hashHex,
      reject('metadata_too_large', `metadata larger than ${limits.metadataBytesMax} bytes`),
    );
  }
  return { ok: true, tx, hash: txHash, hashHex, encodedBytes: txBytes.length, encoded };
}
