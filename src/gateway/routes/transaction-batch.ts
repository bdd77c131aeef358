// Batched submission: POST /v1/transactions/batch takes a SignedTransactionBatch (framed or bare,
// like POST /transaction's body) and answers 200 with one result per transaction, in order, whenever the
// batch was read, even if every item was refused; a batch that cannot be read as a whole (not a codec
// message, more items than `gateway.transaction_batch_items_max`, body over
// `gateway.transaction_batch_body_bytes_max`) is a 4xx. The WebSocket channel (transaction-ws.ts) shares
// the answer's shape. The rate budget is charged per item (`chargeItems`); items past it are `rate_limited`.

import type { FastifyReply } from 'fastify';
import type { Infer } from '../../codec/codec.js';
import type { GatewayApp } from '../context.js';
import type { RouteDeps } from '../deps.js';
import { type GatewayError, gatewayError } from '../errors.js';
import type { BatchOutcome, SubmitOutcome } from '../ports.js';
import { clientKey } from '../rate-limit.js';
import { defineRoute, type RouteDef } from '../route-table.js';
import { respond, viewSchema } from '../view.js';
import { TransactionBatchResultView } from '../views/transactions.js';
import { refusalError } from './transaction-refusal.js';

export const TRANSACTION_BATCH_ITEMS_MAX = 1024;
export const TRANSACTION_BATCH_BODY_BYTES_MAX = 1024 * 1024;
export const TRANSACTION_WS_IN_FLIGHT_MAX = 4096;

/** `gateway.transaction_ws_pending_bytes_max`; by default two of the largest messages. */
export function transactionWsPendingBytesMax(limits: RouteDeps['limits']): number {
  return (
    limits.transactionWsPendingBytesMax ??
    2 * (limits.transactionBatchBodyBytesMax ?? TRANSACTION_BATCH_BODY_BYTES_MAX)
  );
}

export type TransactionBatchResult = Infer<typeof TransactionBatchResultView>;

/** The error for a batch that was not read as a whole. */
export function batchError(r: Exclude<BatchOutcome, { ok: true }>): GatewayError {
  if (r.kind === 'too_many')
    return gatewayError('transaction_batch_too_large', { items: r.count, limit: r.max });
  return gatewayError('invalid_codec_body', {
    codec_code: r.error.code,
    at: r.error.at ?? null,
    reason: r.error.message,
  });
}

/** One item per outcome, in order, counted in `transaction_batch_items_total{channel}`. */
export function batchResult(
  app: GatewayApp,
  d: RouteDeps,
  channel: 'http' | 'ws',
  outcomes: readonly SubmitOutcome[],
): TransactionBatchResult {
  let accepted = 0;
  const results = outcomes.map((r) => {
    if (r.ok) {
      accepted++;
      return { txHash: r.hashHex, status: 'Queued' };
    }
    const hashHex = r.kind === 'codec' || r.kind === 'rate_limited' ? undefined : r.hashHex;
    const e = refusalError(d, r).toBody();
    const error = { code: e.code, message: e.message, details: e.details as never };
    return {
      ...(hashHex === undefined ? {} : { txHash: hashHex }),
      status: 'Refused',
      error,
    };
  });
  const refused = outcomes.length - accepted;
  const metric = app.gateway.metrics.batchItems;
  if (accepted > 0) metric.inc({ channel, outcome: 'accepted' }, accepted);
  if (refused > 0) metric.inc({ channel, outcome: 'refused' }, refused);
  const queue = { depth: d.ports.transactions.queueDepth(), capacity: d.ports.transactions.queueCapacity() };
  return { accepted, refused, results, queue };
}

/**
 * Charges a batch one rate token per item: the request hook took one for the first item already, so the
 * others take `n - 1` more; items past the budget are refused `rate_limited`, the first ones admitted.
 */
function chargeItems(app: GatewayApp, key: string, n: number): { granted: number; retryAfterS: number } {
  if (n <= 1) return { granted: n, retryAfterS: 0 };
  const g = app.gateway.rateLimiter.takeUpTo(key, n - 1);
  return { granted: g.granted + 1, retryAfterS: g.retryAfterS };
}

function bodyBytes(body: unknown): Uint8Array {
  if (body instanceof Uint8Array) return body;
  throw gatewayError('invalid_codec_body', { reason: 'empty body' });
}

function queueHeaders(reply: FastifyReply, r: TransactionBatchResult): void {
  reply
    .header('x-ledger-queue-depth', String(r.queue.depth))
    .header('x-ledger-queue-capacity', String(r.queue.capacity));
}

export function transactionBatchRoutes(app: GatewayApp, d: RouteDeps): RouteDef[] {
  const itemsMax = d.limits.transactionBatchItemsMax ?? TRANSACTION_BATCH_ITEMS_MAX;
  return [
    defineRoute({
      method: 'POST',
      url: '/v1/transactions/batch',
      operationId: 'submitTransactionBatch',
      summary:
        'Submit many signed transactions (a framed or bare SignedTransactionBatch); 200 with one result per item, in order',
      description:
        'Every item keeps every admission check of POST /transaction and gets its own result: `Queued` ' +
        'with its hash, or `Refused` with the error body POST /transaction would answer. 200 whenever the ' +
        'batch was read, even if items were refused; 400 `invalid_codec_body` if it is not a batch, 413 ' +
        '`transaction_batch_too_large` above gateway.transaction_batch_items_max items.',
      tags: ['transactions'],
      visibility: 'public',
      bodyFormats: ['codec'],
      bodyBytesMax: d.limits.transactionBatchBodyBytesMax ?? TRANSACTION_BATCH_BODY_BYTES_MAX,
      formats: { default: 'json', offers: ['json', 'codec'] },
      errorStatuses: [413],
      schema: { response: { 200: viewSchema(TransactionBatchResultView) } },
      handler: async (req, reply) => {
        const key = clientKey(req.ip);
        const r = await d.ports.transactions.submitBatch(bodyBytes(req.body), itemsMax, key, (n) =>
          chargeItems(app, key, n),
        );
        if (!r.ok) throw batchError(r);
        const result = batchResult(app, d, 'http', r.results);
        queueHeaders(reply, result);
        return respond(d.schema, req, reply, TransactionBatchResultView, result);
      },
    }),
  ];
}
