// Admission: everything checked before a transaction is queued, in a fixed order so
// the first failing check wins: decoding with limits, chain id, creation time against the allowed clock
// drift, TTL, signing algorithm, signature, then size, instruction and metadata limits, then weight.

import type { CodecError } from '../codec/errors.js';
import { decode, encode, unframe } from '../codec/frame.js';
import type { DecodeLimits } from '../codec/limits.js';
import { hash } from '../crypto/hash.js';
import type { Algorithm } from '../crypto/keys.js';
import type { VerifyItem } from '../crypto/verify-batch.js';
import { parseAccountId } from '../model/ids.js';
import { parsePublicKey } from '../model/keys.js';
import { MetadataCodec } from '../model/metadata.js';
import { type Rejection, reject } from '../model/rejections.js';
import { SCHEMA } from '../model/schema.js';
import { type SignedTransaction, SignedTransactionCodec } from '../model/transaction.js';
import { transactionWeight } from '../model/weights.js';
import { assert } from '../util/assert.js';
import { toHex } from '../util/hex.js';

export interface AdmissionLimits {
  transactionBytesMax: number;
  instructionsMax: number;
  metadataBytesMax: number;
  maxClockDriftMs: number;
  allowedAlgorithms: ReadonlySet<Algorithm>;
  decode: DecodeLimits;
  /** The chain's TransactionMaxWeight (docs/cost-model.md); absent: weight is not checked here. */
  transactionWeightMax?: number;
}

export type SignatureCheck = (
  publicKey: Uint8Array,
  message: Uint8Array,
  signature: Uint8Array,
) => Promise<boolean>;

/** Many signature checks at once, one answer per item in order (the verification pool's `verify`). */
export type SignatureBatchCheck = (items: VerifyItem[]) => Promise<boolean[]>;

export interface Admitted {
  ok: true;
  tx: SignedTransaction;
  hash: Uint8Array;
  hashHex: string;
  encodedBytes: number;
  /** The signed transaction's canonical encoding as received (a copy), reused when the block is encoded. */
  encoded: Uint8Array;
  /** Its static weight (model/weights.ts `transactionWeight`). */
  weight: number;
}

export type AdmissionResult =
  | Admitted
  | { ok: false; kind: 'codec'; error: CodecError }
  | { ok: false; kind: 'rejected'; rejection: Rejection; hashHex?: string };

/** A decoded signed transaction with its canonical encoding and the exact payload bytes that were signed. */
export interface DecodedTransaction {
  tx: SignedTransaction;
  payloadBytes: Uint8Array;
  txBytes: Uint8Array;
}

/** Decodes a framed or bare signed transaction, returning it with the exact payload bytes that were signed. */
export function decodeSignedTransaction(
  body: Uint8Array,
  limits: DecodeLimits,
): ({ ok: true } & DecodedTransaction) | { ok: false; error: CodecError } {
  const u = unframe(SCHEMA, 'SignedTransaction', body);
  if (!u.ok) return u;
  // Unframing only strips a header: the payload is a view of the body, never more.
  assert(u.payload.length <= body.length, `unframed ${u.payload.length} bytes from ${body.length}`);
  const decoded = decode(SignedTransactionCodec, u.payload, limits);
  if (!decoded.ok) return decoded;
  return {
    ok: true,
    tx: decoded.value,
    payloadBytes: u.payload.subarray(0, payloadEnd(u.payload.length, decoded.value)),
    txBytes: u.payload,
  };
}

/**
 * Where the signed payload ends in a transaction's encoding of `length` bytes. The encoding is canonical,
 * so the payload's bytes as received are exactly its canonical encoding: they are hashed directly instead
 * of re-encoded (docs/codec.md §8). The signature is the last field (a canonical varint length then its
 * bytes), so the payload ends where the signature's encoding begins: no second decoding pass is needed.
 */
export function payloadEnd(length: number, tx: SignedTransaction): number {
  const signature = tx.signature;
  const end = length - varuintBytes(signature.length) - signature.length;
  // `tx` was decoded from these `length` bytes, its signature last: the payload is a proper prefix.
  assert(end > 0 && end < length, `payload end ${end} of a ${length}-byte transaction`);
  return end;
}

/** Bytes of the canonical LEB128 encoding of `n` (docs/codec.md §2). */
function varuintBytes(n: number): number {
  // A decoded length: a negative or fractional one would give the payload a wrong end.
  assert(Number.isSafeInteger(n) && n >= 0, `varuint size of ${n}`);
  let bytes = 1;
  for (let v = n; v >= 0x80; v = Math.floor(v / 128)) bytes++;
  return bytes;
}

function refused(hashHex: string, rejection: Rejection): Extract<AdmissionResult, { kind: 'rejected' }> {
  // The hash reported with a refusal is the one admission computed: 32 bytes in hex.
  assert(hashHex.length === 64, `refusal of a ${hashHex.length}-character hash`);
  return { ok: false, kind: 'rejected', rejection, hashHex };
}

/** A transaction that passed every check before its signature: what the signature check needs. */
interface Prepared {
  ok: true;
  tx: SignedTransaction;
  txHash: Uint8Array;
  hashHex: string;
  encoded: Uint8Array;
  verify: VerifyItem;
}

type Refused = Exclude<AdmissionResult, { ok: true }>;

/** The checks before the signature, in order: size, decoding, chain id, creation time, TTL, algorithm. */
function prepare(
  body: Uint8Array,
  chainId: string,
  nowMs: number,
  limits: AdmissionLimits,
): Prepared | Refused {
  const large = tooLarge(body.length, limits);
  if (large !== undefined) return large;
  const d = decodeSignedTransaction(body, limits.decode);
  if (!d.ok) return { ok: false, kind: 'codec', error: d.error };
  return prepareDecoded(d, chainId, nowMs, limits);
}

function tooLarge(bytes: number, limits: AdmissionLimits): Refused | undefined {
  // A NaN bound would let every size through.
  assert(
    Number.isSafeInteger(limits.transactionBytesMax) && limits.transactionBytesMax > 0,
    `admission: transaction size bound ${limits.transactionBytesMax}`,
  );
  if (bytes <= limits.transactionBytesMax) return undefined;
  return {
    ok: false,
    kind: 'rejected',
    rejection: reject('transaction_too_large', `${bytes} bytes > ${limits.transactionBytesMax}`),
  };
}

/** The checks after decoding and before the signature. */
function prepareDecoded(
  d: DecodedTransaction,
  chainId: string,
  nowMs: number,
  limits: AdmissionLimits,
): Prepared | Refused {
  const { tx, payloadBytes, txBytes } = d;
  // The signed payload is a proper prefix of the transaction's own bytes (payloadEnd), same buffer.
  assert(
    payloadBytes.buffer === txBytes.buffer &&
      payloadBytes.byteOffset === txBytes.byteOffset &&
      payloadBytes.length < txBytes.length,
    `admission: a ${payloadBytes.length}-byte payload of a ${txBytes.length}-byte transaction`,
  );
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
  const account = parseAccountId(p.authority);
  const key = account === undefined ? undefined : parsePublicKey(account.signatory);
  // Decoding validated the id and its signatory key.
  assert(key !== undefined, `admission: decoded authority ${p.authority} does not parse`);
  if (!limits.allowedAlgorithms.has(key.algorithm))
    return refused(hashHex, reject('algorithm_not_allowed', `algorithm ${key.algorithm} is not allowed`));
  const verify = { publicKey: key.bytes, message: hash(payloadBytes), signature: tx.signature };
  return { ok: true, tx, txHash, hashHex, encoded, verify };
}

/** The signature's answer, then the checks after it: instruction count and metadata size. */
function complete(t: Prepared, signatureValid: boolean, limits: AdmissionLimits): AdmissionResult {
  const { tx, hashHex } = t;
  const p = tx.payload;
  if (!signatureValid) return refused(hashHex, reject('signature_invalid'));
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
  const weight = transactionWeight(p.instructions);
  // A NaN would pass the cap below and every budget comparison after it.
  assert(Number.isSafeInteger(weight) && weight > 0, `admission: ${hashHex} weighs ${weight}`);
  const max = limits.transactionWeightMax;
  if (max !== undefined && weight > max) {
    return refused(
      hashHex,
      reject('transaction_weight_exceeded', `weight ${weight} > TransactionMaxWeight ${max}`),
    );
  }
  // The size cap covered what is queued (the body, or the item's own bytes, of which this is the unframed copy).
  assert(
    t.encoded.length <= limits.transactionBytesMax,
    `admission: ${hashHex} of ${t.encoded.length} bytes passed a cap of ${limits.transactionBytesMax}`,
  );
  return {
    ok: true,
    tx,
    hash: t.txHash,
    hashHex,
    encodedBytes: t.encoded.length,
    encoded: t.encoded,
    weight,
  };
}

export async function admitTransaction(
  body: Uint8Array,
  chainId: string,
  nowMs: number,
  limits: AdmissionLimits,
  verify: SignatureCheck,
): Promise<AdmissionResult> {
  assertAdmissionTime(nowMs);
  const t = prepare(body, chainId, nowMs, limits);
  if (!t.ok) return t;
  const v = t.verify;
  return complete(t, await verify(v.publicKey, v.message, v.signature), limits);
}

/**
 * Admission of many transactions at once: each keeps every check of `admitTransaction`, in the same
 * order, and gets its own result at its own index; one refused never affects another. The signatures
 * of those that reach the signature check are verified together in one call (on the node, one batch
 * of the verification pool instead of one gathered item per transaction).
 */
export async function admitTransactions(
  bodies: readonly Uint8Array[],
  chainId: string,
  nowMs: number,
  limits: AdmissionLimits,
  verifyMany: SignatureBatchCheck,
): Promise<AdmissionResult[]> {
  assertAdmissionTime(nowMs);
  const prepared = bodies.map((body) => prepare(body, chainId, nowMs, limits));
  return verifyAndComplete(prepared, limits, verifyMany);
}

/**
 * `admitTransactions` for transactions already decoded (from a SignedTransactionBatch, batch.ts): the
 * same checks, the size limit applying to each transaction's encoding.
 */
export async function admitDecodedTransactions(
  items: readonly DecodedTransaction[],
  chainId: string,
  nowMs: number,
  limits: AdmissionLimits,
  verifyMany: SignatureBatchCheck,
): Promise<AdmissionResult[]> {
  assertAdmissionTime(nowMs);
  const prepared = items.map(
    (d) => tooLarge(d.txBytes.length, limits) ?? prepareDecoded(d, chainId, nowMs, limits),
  );
  return verifyAndComplete(prepared, limits, verifyMany);
}

async function verifyAndComplete(
  prepared: readonly (Prepared | Refused)[],
  limits: AdmissionLimits,
  verifyMany: SignatureBatchCheck,
): Promise<AdmissionResult[]> {
  const items: VerifyItem[] = [];
  for (const t of prepared) if (t.ok) items.push(t.verify);
  const answers = items.length === 0 ? [] : await verifyMany(items);
  // One answer per item, in order: a short answer list would refuse (or, shifted, admit) the wrong ones.
  assert(
    answers.length === items.length,
    `admission: ${answers.length} answers for ${items.length} signatures`,
  );
  let next = 0;
  const results = prepared.map((t) => (t.ok ? complete(t, answers[next++] === true, limits) : t));
  // Every answer was given to its own transaction, none left over (nor read past the end).
  assert(next === answers.length, `admission: used ${next} of ${answers.length} signature answers`);
  return results;
}

/**
 * The clock reading admission compares creation times and TTLs with: a NaN or negative one would pass
 * every `creation_time_in_future` and `transaction_expired` test.
 */
function assertAdmissionTime(nowMs: number): void {
  assert(Number.isFinite(nowMs) && nowMs >= 0, `admission at time ${nowMs}`);
}
