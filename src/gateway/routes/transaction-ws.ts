// The WebSocket submission channel `GET /v1/transactions/ws`. After the upgrade the client
// sends binary messages, each a framed SignedTransaction or a framed or bare SignedTransactionBatch
// (the bare form is read as a batch). The server answers every message, in order, with one JSON text
// message: the TransactionBatchResult of POST /v1/transactions/batch (a single transaction is a batch of
// one), or an error body `{code, message, details}` for a message that could not be read as a whole.
// Limits: a message is at most gateway.transaction_batch_body_bytes_max bytes (closed 1009 above) and
// gateway.transaction_batch_items_max items; a single transaction above gateway.transaction_body_bytes_max
// is answered `body_too_large` as soon as it arrives (its bytes are not kept); a text message closes the
// channel 1008. Each message is charged its item count on the client's rate budget before admission;
// items over the budget are refused `rate_limited`, as in the batch route. Backpressure: the server stops
// reading the socket while gateway.transaction_ws_in_flight_max items or
// gateway.transaction_ws_pending_bytes_max bytes are read and not yet answered, while the transaction
// queue is full, and while its answers wait for the client to read them. Messages already buffered keep
// arriving after reading stops; past that bound plus one largest message and one socket read
// (PENDING_SLACK_BYTES), the channel is closed 1008 `submission backlog over limit`.

import type { RawData, WebSocket } from 'ws';
import { FRAME_HEADER_BYTES, FRAME_MAGIC } from '../../codec/frame.js';
import { SCHEMA } from '../../model/schema.js';
import type { GatewayApp } from '../context.js';
import type { RouteDeps } from '../deps.js';
import { gatewayError } from '../errors.js';
import type { BatchOutcome, SubmitOutcome } from '../ports.js';
import { clientKey } from '../rate-limit.js';
import { TransactionBatchResultView } from '../views/transactions.js';
import { registerWsRoute, WS_CLOSE, type WsContext } from '../ws.js';
import {
  batchError,
  batchResult,
  TRANSACTION_BATCH_BODY_BYTES_MAX,
  TRANSACTION_BATCH_ITEMS_MAX,
  TRANSACTION_WS_IN_FLIGHT_MAX,
  transactionWsPendingBytesMax,
} from './transaction-batch.js';

/** The close reason when buffered messages outgrow the pending bound after reading stopped (stable). */
export const WS_BACKLOG_CLOSE_REASON = 'submission backlog over limit';
/** One socket read: what the WebSocket parser may still deliver after reading stopped, besides one message. */
const PENDING_SLACK_BYTES = 64 * 1024;
/** How often a paused channel looks again at a full transaction queue. */
const QUEUE_FULL_POLL_MS = 20;
/**
 * A framed SignedTransaction, by its frame header alone (magic and schema hash: the frame is checked when
 * it is submitted, so a damaged one gets its own codec error); a bare message is read as a batch.
 */
function isSingleTransaction(body: Uint8Array): boolean {
  if (body.length < FRAME_HEADER_BYTES) return false;
  const single = SCHEMA.schemaHash('SignedTransaction'); // cached by the registry
  for (let i = 0; i < FRAME_MAGIC.length; i++) if (body[i] !== FRAME_MAGIC[i]) return false;
  for (let i = 0; i < single.length; i++) if (body[6 + i] !== single[i]) return false;
  return true;
}

/** A message waiting for its answer: its bytes, or the answer already known (refused on arrival). */
type Pending = { body: Uint8Array; single: boolean; items: number; answer?: string };

export class SubmitSession {
  private readonly pending: Pending[] = [];
  private inFlight = 0;
  private pendingBytes = 0;
  private running = false;
  private paused = false;

  constructor(
    private readonly app: GatewayApp,
    private readonly d: RouteDeps,
    private readonly socket: WebSocket,
    private readonly ctx: WsContext,
    private readonly source: string,
  ) {}

  /** A message read from the socket: queued for its turn, reading paused above the in-flight bounds. */
  receive(body: Uint8Array, binary: boolean): void {
    if (!binary) {
      this.ctx.close(WS_CLOSE.policyViolation, 'binary messages only');
      return;
    }
    if (this.pendingBytes + body.length > this.pendingBytesCap()) {
      this.pending.length = 0;
      this.ctx.close(WS_CLOSE.policyViolation, WS_BACKLOG_CLOSE_REASON);
      return;
    }
    this.pending.push(this.admitted(body));
    this.pauseIfNeeded();
    if (!this.running) void this.run();
  }

  /** Counts a message in the bounds; a single transaction above its body limit is answered at once. */
  private admitted(body: Uint8Array): Pending {
    const single = isSingleTransaction(body);
    const bytesMax = this.d.limits.transactionBodyBytesMax;
    if (single && body.length > bytesMax) {
      const e = gatewayError('body_too_large', { bytes: body.length, limit: bytesMax });
      this.inFlight += 1;
      return { body: new Uint8Array(0), single, items: 1, answer: JSON.stringify(e.toBody()) };
    }
    // A batch over the item limit is refused whole; counting it as limit + 1 keeps the sum bounded.
    const itemsMax = this.d.limits.transactionBatchItemsMax ?? TRANSACTION_BATCH_ITEMS_MAX;
    const items = single ? 1 : Math.min(itemsOf(body), itemsMax + 1);
    this.inFlight += items;
    this.pendingBytes += body.length;
    return { body, single, items };
  }

  /** Past this many pending bytes even a paused socket is misbehaving (see the header comment). */
  private pendingBytesCap(): number {
    const messageMax = this.d.limits.transactionBatchBodyBytesMax ?? TRANSACTION_BATCH_BODY_BYTES_MAX;
    return transactionWsPendingBytesMax(this.d.limits) + messageMax + PENDING_SLACK_BYTES;
  }

  private pauseIfNeeded(): void {
    const max = this.d.limits.transactionWsInFlightMax ?? TRANSACTION_WS_IN_FLIGHT_MAX;
    const full = this.d.ports.transactions.queueDepth() >= this.d.ports.transactions.queueCapacity();
    const pause =
      this.inFlight >= max || this.pendingBytes >= transactionWsPendingBytesMax(this.d.limits) || full;
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
        const answer = m.answer ?? (await this.answer(m.body, m.single));
        this.inFlight -= m.items;
        this.pendingBytes -= m.body.length;
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
    const limiter = this.app.gateway.rateLimiter;
    const r: BatchOutcome = single
      ? { ok: true, results: [await this.submitOne(body)] }
      : await t.submitBatch(body, itemsMax, this.source, (n) => limiter.takeUpTo(this.source, n));
    if (!r.ok) return JSON.stringify(batchError(r).toBody());
    return JSON.stringify(TransactionBatchResultView.toJson(batchResult(this.app, this.d, 'ws', r.results)));
  }

  /** One transaction, charged one token of the client's rate budget before admission. */
  private async submitOne(body: Uint8Array): Promise<SubmitOutcome> {
    const decision = this.app.gateway.rateLimiter.take(this.source);
    if (!decision.ok) return { ok: false, kind: 'rate_limited', retryAfterS: decision.retryAfterS };
    return this.d.ports.transactions.submit(body, this.source);
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
