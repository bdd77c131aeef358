// Decoding a batch of signed transactions (SignedTransactionBatch, framed or bare like POST /transaction's
// body): each item is decoded once, with the bytes it came from, so admission hashes and verifies it
// without decoding it again (admission.ts `admitDecodedTransactions`).

import { CodecError } from '../codec/errors.js';
import { decodeWith, unframe } from '../codec/frame.js';
import type { DecodeLimits } from '../codec/limits.js';
import { Reader } from '../codec/reader.js';
import { SCHEMA } from '../model/schema.js';
import { SignedTransactionCodec } from '../model/transaction.js';
import { assert } from '../util/assert.js';
import { type DecodedTransaction, payloadEnd } from './admission.js';

export type BatchDecodeResult =
  | { ok: true; items: DecodedTransaction[] }
  | { ok: false; kind: 'codec'; error: CodecError }
  | { ok: false; kind: 'too_many'; count: number; max: number };

/**
 * Decodes a framed or bare SignedTransactionBatch of at most `itemsMax` items. The count is read first,
 * so a batch over the limit is refused before any item is decoded. A malformed item makes the whole
 * batch undecodable (its items cannot be told apart past it).
 */
export function decodeTransactionBatch(
  body: Uint8Array,
  limits: DecodeLimits,
  itemsMax: number,
): BatchDecodeResult {
  // The caller's bound (the gateway's batch limit): a NaN one would let any count through.
  assert(Number.isSafeInteger(itemsMax) && itemsMax >= 0, `transaction batch bounded at ${itemsMax}`);
  const u = unframe(SCHEMA, 'SignedTransactionBatch', body);
  if (!u.ok) return { ok: false, kind: 'codec', error: u.error };
  const payload = u.payload;
  let count: number;
  try {
    count = new Reader(payload, limits).varuint();
  } catch (e) {
    if (e instanceof CodecError) return { ok: false, kind: 'codec', error: e };
    throw e;
  }
  if (count > itemsMax) return { ok: false, kind: 'too_many', count, max: itemsMax };
  const d = decodeWith(payload, limits, (r) => {
    const n = r.length(Math.min(itemsMax, limits.itemsMax), SignedTransactionCodec.minBytes);
    // The same varint the count was read from above, read again by the decoder.
    assert(n === count, `transaction batch: ${n} items decoded of a count of ${count}`);
    r.enter();
    const items: DecodedTransaction[] = new Array(n);
    for (let i = 0; i < n; i++) {
      const start = r.pos;
      const tx = SignedTransactionCodec.decode(r);
      // Each item's bytes are its own: the reader moved forward over at least one item's minimum.
      assert(r.pos - start >= SignedTransactionCodec.minBytes, `batch item ${i} took ${r.pos - start} bytes`);
      const txBytes = payload.subarray(start, r.pos);
      items[i] = { tx, txBytes, payloadBytes: txBytes.subarray(0, payloadEnd(txBytes.length, tx)) };
    }
    r.leave();
    return items;
  });
  return d.ok ? { ok: true, items: d.value } : { ok: false, kind: 'codec', error: d.error };
}
