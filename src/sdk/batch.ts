// `submitMany`: many signed transactions through POST /v1/transactions/batch, split into
// batches the node accepts, one result per transaction in the order given. The node's limits are its
// defaults unless the caller knows better; a 413 answer teaches the real ones (`transaction_batch_too_large`
// names the item limit, `body_too_large` halves the byte budget) and the rest is split again.

import type { Infer } from '../codec/codec.js';
import { encodeFrame } from '../codec/frame.js';
import { type TransactionBatchItemView, TransactionBatchResultView } from '../gateway/views/transactions.js';
import { SCHEMA } from '../model/schema.js';
import { SignedTransactionBatchCodec } from '../model/transaction.js';
import { ToranaApiError, ToranaTransportError } from './errors.js';
import type { Http } from './http.js';
import type { BuiltTransaction } from './transaction.js';

/** The node's defaults (gateway.transaction_batch_items_max, gateway.transaction_batch_body_bytes_max). */
export const BATCH_ITEMS_MAX_DEFAULT = 1024;
export const BATCH_BODY_BYTES_MAX_DEFAULT = 1024 * 1024;
/** A frame header plus the batch's count, with room to spare. */
const BATCH_OVERHEAD_BYTES = 32;
/** A framed transaction's header, which its batch item does not carry. */
const FRAME_HEADER_BYTES = 22;

export interface SubmitManyOptions {
  /** Transactions per request; at most the node's `gateway.transaction_batch_items_max`. */
  itemsMax?: number;
  /** Bytes per request body; at most the node's `gateway.transaction_batch_body_bytes_max`. */
  bodyBytesMax?: number;
}

/** One transaction's result: `Queued` with its hash, or `Refused` with the error the node gave it. */
export type BatchItemResult = Infer<typeof TransactionBatchItemView>;

/** The longest prefix of `txs` that fits both limits (at least one transaction). */
function nextChunk(txs: readonly BuiltTransaction[], itemsMax: number, bytesMax: number): number {
  let bytes = BATCH_OVERHEAD_BYTES;
  let n = 0;
  while (n < txs.length && n < itemsMax) {
    bytes += txs[n]!.bytes.length - FRAME_HEADER_BYTES;
    if (n > 0 && bytes > bytesMax) break;
    n++;
  }
  return Math.max(1, n);
}

export async function submitMany(
  http: Http,
  txs: readonly BuiltTransaction[],
  opts: SubmitManyOptions = {},
): Promise<BatchItemResult[]> {
  let itemsMax = opts.itemsMax ?? BATCH_ITEMS_MAX_DEFAULT;
  let bytesMax = opts.bodyBytesMax ?? BATCH_BODY_BYTES_MAX_DEFAULT;
  const out: BatchItemResult[] = [];
  let at = 0;
  while (at < txs.length) {
    const n = nextChunk(txs.slice(at), itemsMax, bytesMax);
    const chunk = txs.slice(at, at + n);
    try {
      out.push(...(await postBatch(http, chunk)));
      at += n;
    } catch (e) {
      if (!(e instanceof ToranaApiError) || n === 1) throw e;
      if (e.code === 'transaction_batch_too_large' && typeof e.details['limit'] === 'number')
        itemsMax = Math.max(1, Math.min(n - 1, e.details['limit']));
      else if (e.code === 'body_too_large') bytesMax = Math.floor(bytesMax / 2);
      else throw e;
    }
  }
  return out;
}

async function postBatch(http: Http, chunk: readonly BuiltTransaction[]): Promise<BatchItemResult[]> {
  const body = encodeFrame(
    SCHEMA,
    SignedTransactionBatchCodec,
    chunk.map((t) => t.signed),
  );
  const res = await http.request({
    method: 'POST',
    path: '/v1/transactions/batch',
    body,
    contentType: 'application/x-codec',
  });
  let answer: Infer<typeof TransactionBatchResultView>;
  try {
    answer = TransactionBatchResultView.fromJson(await res.json(), '');
  } catch (e) {
    throw new ToranaTransportError(`/v1/transactions/batch: unexpected answer (${(e as Error).message})`);
  }
  if (answer.results.length !== chunk.length)
    throw new ToranaTransportError(
      `/v1/transactions/batch: ${answer.results.length} results for ${chunk.length} transactions`,
    );
  return answer.results;
}
