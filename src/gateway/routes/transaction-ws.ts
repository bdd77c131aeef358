// The WebSocket submission channel `GET /v1/transactions/ws` (issue 14). After the upgrade the client
// sends binary messages, each a framed SignedTransaction or a framed or bare SignedTransactionBatch
// (the bare form is read as a batch). The server answers every message, in order, with one JSON text
// message: the TransactionBatchResult of POST /v1/transactions/batch (a single transaction is a batch of
// one), or an error body `{code, message, details}` for a message that could not be read as a whole.
// Limits: a message is at most gateway.transaction_batch_body_bytes_max bytes (closed 1009 above) and
// gateway.transaction_batch_items_max items; a text message closes the channel 1008. Backpressure: the
// server stops reading the socket while gateway.transaction_ws_in_flight_max items are read and not yet
// answered, while the transaction queue is full, and while its answers wait for the client to read them.

import type { RawData, WebSocket } from 'ws';
import { unframe } from '../../codec/frame.js';
import { SCHEMA } from '../../model/schema.js';
import type { GatewayApp } from '../context.js';
import type { RouteDeps } from '../deps.js';
import type { BatchOutcome } from '../ports.js';
import { clientKey } from '../rate-limit.js';
import { TransactionBatchResultView } from '../views/transactions.js';
import { registerWsRoute, WS_CLOSE, type WsContext } from '../ws.js';
import {
  batchError,
  batchResult,
  TRANSACTION_BATCH_BODY_BYTES_MAX,
  TRANSACTION_BATCH_ITEMS_MAX,
  TRANSACTION_WS_IN_FLIGHT_MAX,
} from './transaction-batch.js';

/** How often a paused channel looks again at a full transaction queue. */
const QUEUE_FULL_POLL_MS = 20;
/** A framed SignedTransaction (by its schema hash); a bare message is read as a batch. */
const isSingleTransaction = (body: Uint8Array) =>
  unframe(SCHEMA, 'SignedTransaction', body).ok && body[0] !== 1;

export class SubmitSession {
  private readonly pending: { body: Uint8Array; single: boolean; items: number }[] = [];
  private inFlight = 0;
  private running = false;
  private paused = false;

  constructor(
    private readonly app: GatewayApp,
    private readonly d: RouteDeps,
    private readonly socket: WebSocket,
    private readonly ctx: WsContext,
    private readonly source: string,
  ) {}

  /** A message read from the socket: queued for its turn, reading paused above the in-flight bound. */
  receive(body: Uint8Array, binary: boolean): void {
    if (!binary) {
      this.ctx.close(WS_CLOSE.policyViolation, 'binary messages only');
      return;
    }
    const single = isSingleTransaction(body);
    // A batch over the item limit is refused whole; counting it as limit + 1 keeps the sum bounded.
    const itemsMax = this.d.limits.transactionBatchItemsMax ?? TRANSACTION_BATCH_ITEMS_MAX;
    const items = single ? 1 : Math.min(itemsOf(body), itemsMax + 1);
    this.pending.push({ body, single, items });
    this.inFlight += items;
    this.pauseIfNeeded();
    if (!this.running) void this.run();
  }

  private pauseIfNeeded(): void {
    const max = this.d.limits.transactionWsInFlightMax ?? TRANSACTION_WS_IN_FLIGHT_MAX;
    const full = this.d.ports.transactions.queueDepth() >= this.d.ports.transactions.queueCapacity();
    const pause = this.inFlight >= max || full;
    if (pause && !this.paused) this.socket.pause();
    else if (!pause && this.paused) this.socket.resume();
    this.paused = pause;
    // Paused with nothing left to answer (the queue was full): nothing else would look again.
    if (pause && !this.running && this.pending.length === 0 && this.socket.readyState === this.socket.OPEN)
      setTimeout(() => this.pauseIfNeeded(), QUEUE_FULL_POLL_MS).unref();
  }

  private async run(): Promise<void> {
    this.running = true;
    try {
      for (let m = this.pending.shift(); m !== undefined; m = this.pending.shift()) {
        if (!(await this.roomInQueue())) return;
        const answer = await this.answer(m.body, m.single);
        this.inFlight -= m.items;
        if (!this.ctx.hasRoom() && !(await this.ctx.drained())) return;
        if (!this.ctx.send(answer)) return;
        this.pauseIfNeeded();
      }
    } finally {
      this.running = false;
    }
    this.pauseIfNeeded();
  }

  /** Waits while the transaction queue is full (reading stays paused); false once the channel closed. */
  private async roomInQueue(): Promise<boolean> {
    const t = this.d.ports.transactions;
    while (t.queueDepth() >= t.queueCapacity()) {
      this.pauseIfNeeded();
      if (this.socket.readyState !== this.socket.OPEN) return false;
      await new Promise((resolve) => setTimeout(resolve, QUEUE_FULL_POLL_MS));
    }
    return this.socket.readyState === this.socket.OPEN;
  }

  private async answer(body: Uint8Array, single: boolean): Promise<string> {
    const t = this.d.ports.transactions;
    const itemsMax = this.d.limits.transactionBatchItemsMax ?? TRANSACTION_BATCH_ITEMS_MAX;
    const r: BatchOutcome = single
      ? { ok: true, results: [await t.submit(body, this.source)] }
      : await t.submitBatch(body, itemsMax, this.source);
    if (!r.ok) return JSON.stringify(batchError(r).toBody());
    return JSON.stringify(TransactionBatchResultView.toJson(batchResult(this.app, this.d, 'ws', r.results)));
  }
}

/** Items of a batch message for the in-flight bound: its count prefix (checked when it is decoded). */
function itemsOf(body: Uint8Array): number {
  const payloadAt = body[0] === 1 ? 1 : 22;
  let n = 0;
  let shift = 1;
  for (let i = payloadAt; i < body.length && i < payloadAt + 5; i++) {
    n += (body[i]! & 0x7f) * shift;
    if ((body[i]! & 0x80) === 0) return Math.max(1, n);
    shift *= 128;
  }
  return 1;
}

export function registerTransactionSocket(app: GatewayApp, d: RouteDeps): void {
  registerWsRoute(
    app,
    '/v1/transactions/ws',
    (socket, first, ctx, binary) => {
      const session = new SubmitSession(app, d, socket, ctx, clientKey(ctx.remoteAddress));
      socket.on('message', (data, isBinary) => session.receive(toBytes(data), isBinary));
      session.receive(first, binary);
    },
    {
      operationId: 'submitTransactionsWs',
      summary:
        'WebSocket submission: binary messages (a SignedTransaction or SignedTransactionBatch), each answered in order with a JSON TransactionBatchResult',
      tags: ['transactions'],
      limits: {
        frameBytesMax: d.limits.transactionBatchBodyBytesMax ?? TRANSACTION_BATCH_BODY_BYTES_MAX,
      },
      gate: { visibility: 'public', profile: d.profile },
    },
  );
}

function toBytes(data: RawData): Uint8Array {
  if (Array.isArray(data)) return Buffer.concat(data);
  return data instanceof ArrayBuffer ? new Uint8Array(data) : data;
}
