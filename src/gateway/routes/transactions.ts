// Submitting signed transactions and queries:
// POST /transaction answers 202 with a node-signed receipt, or the reject / duplicate / expired /
// queue-full answers with stable codes; POST /query runs a signed query. Transaction status by hash.

import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { Infer } from '../../codec/codec.js';
import { QueryResponseCodec } from '../../model/queries.js';
import { fromHex } from '../../util/hex.js';
import type { RouteDeps } from '../deps.js';
import { gatewayError } from '../errors.js';
import type { FormatOffer } from '../negotiate.js';
import type { SubmitOutcome } from '../ports.js';
import { clientKey } from '../rate-limit.js';
import { defineRoute, type RouteDef } from '../route-table.js';
import { respond, viewSchema } from '../view.js';
import { type Accepted, transactionAcceptedJson } from '../views/accepted-json.js';
import { TransactionAcceptedView } from '../views/common.js';
import { TransactionStatusView } from '../views/transactions.js';
import { refusalError } from './transaction-refusal.js';

const JSON_OR_CODEC: FormatOffer = { default: 'json', offers: ['json', 'codec'] };
const CODEC_FIRST: FormatOffer = { default: 'codec', offers: ['codec', 'json'] };

/** The media type `respond` gives JSON answers. */
const JSON_MEDIA = 'application/json; charset=utf-8';

function acceptedView(a: Accepted): Infer<typeof TransactionAcceptedView> {
  const { signature, ...payload } = a.receipt;
  return {
    txHash: a.txHash,
    status: 'Queued',
    receipt: { payload, signature: fromHex(signature)! },
    queue: a.queue,
  };
}

function bodyBytes(body: unknown): Uint8Array {
  if (body instanceof Uint8Array) return body;
  throw gatewayError('invalid_codec_body', { reason: 'empty body' });
}

function refusal(d: RouteDeps, reply: FastifyReply, r: Exclude<SubmitOutcome, { ok: true }>): never {
  if (r.kind === 'queue_full') {
    reply
      .header('x-ledger-queue-depth', String(r.depth))
      .header('x-ledger-queue-capacity', String(r.capacity));
  }
  throw refusalError(d, r);
}

export function transactionRoutes(d: RouteDeps): RouteDef[] {
  const tags = ['transactions'];
  return [
    defineRoute({
      method: 'POST',
      url: '/transaction',
      operationId: 'submitTransaction',
      summary: 'Submit a signed transaction (framed codec body); 202 with a node-signed receipt',
      tags,
      visibility: 'public',
      bodyFormats: ['codec'],
      bodyBytesMax: d.limits.transactionBodyBytesMax,
      formats: JSON_OR_CODEC,
      errorStatuses: [409],
      schema: { response: { 202: viewSchema(TransactionAcceptedView) } },
      handler: async (req, reply) => {
        const r = await d.ports.transactions.submit(bodyBytes(req.body), clientKey(req.ip));
        if (!r.ok) return refusal(d, reply, r);
        const capacity = d.ports.transactions.queueCapacity();
        reply
          .header('x-ledger-queue-depth', String(r.depth))
          .header('x-ledger-queue-capacity', String(capacity));
        const receipt = d.ports.node.receipt(r.hash, r.submittedAtMs, r.submittedAtHeight);
        const accepted = { txHash: r.hashHex, receipt, queue: { depth: r.depth, capacity } };
        if (req.responseFormat === 'json')
          return reply.code(202).type(JSON_MEDIA).send(transactionAcceptedJson(accepted));
        return respond(d.schema, req, reply, TransactionAcceptedView, acceptedView(accepted), 202);
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/query',
      operationId: 'submitQuery',
      summary: 'Run a signed query (framed codec body); the codec answer by default',
      tags,
      visibility: 'public',
      bodyFormats: ['codec'],
      bodyBytesMax: d.limits.queryBodyBytesMax,
      formats: CODEC_FIRST,
      errorStatuses: [403, 404, 409, 410],
      schema: { response: { 200: viewSchema(QueryResponseCodec) } },
      handler: async (req, reply) => {
        const r = await d.ports.queries.execute(bodyBytes(req.body));
        if (!r.ok) {
          if (r.code.startsWith('codec_'))
            throw gatewayError('invalid_codec_body', { codec_code: r.code, reason: r.message });
          throw d.errors.create(r.code, r.details ?? {}, r.message);
        }
        return respond(d.schema, req, reply, QueryResponseCodec, r.response);
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/pipeline/transactions/status',
      operationId: 'getTransactionStatus',
      summary: 'Status of a transaction by hash: Queued, Committed, Rejected (with reason), Expired',
      tags,
      visibility: 'public',
      formats: JSON_OR_CODEC,
      errorStatuses: [404],
      schema: {
        querystring: Type.Object(
          { hash: Type.String({ pattern: '^[0-9a-fA-F]{64}$' }) },
          { additionalProperties: false },
        ),
        response: { 200: viewSchema(TransactionStatusView) },
      },
      handler: async (req, reply) => {
        const hash = fromHex(req.query.hash, 32)!;
        const s = await d.ports.transactions.status(hash);
        if (s === undefined) throw gatewayError('not_found', { hash: req.query.hash.toLowerCase() });
        return respond(d.schema, req, reply, TransactionStatusView, {
          hash: req.query.hash.toLowerCase(),
          status: s.status,
          ...('blockHeight' in s ? { blockHeight: s.blockHeight } : {}),
          ...('reason' in s ? { reason: s.reason } : {}),
          ...('message' in s ? { message: s.message } : {}),
        });
      },
    }),
  ];
}
