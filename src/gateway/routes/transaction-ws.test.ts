// The WebSocket submission session's backpressure: it stops reading its socket above the in-flight bounds
// (items and bytes) and while the transaction queue is full, resumes when they clear, answers messages in
// order, closes a channel whose buffered messages outgrow the byte bound, refuses an oversized single
// transaction on arrival, and charges every item on the client's rate budget.

// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../../modules/registry.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { WebSocket } from 'ws';
import { CODEC_VERSION, FRAME_MAGIC } from '../../codec/frame.js';
import { SCHEMA } from '../../model/schema.js';
import type { GatewayApp } from '../context.js';
import type { RouteDeps } from '../deps.js';
import type { BatchBudget, BatchOutcome } from '../ports.js';
import type { WsContext } from '../ws.js';
import { SubmitSession, WS_BACKLOG_CLOSE_REASON } from './transaction-ws.js';

function harness(inFlightMax: number, o: { pendingBytesMax?: number; tokens?: number } = {}) {
  const state = {
    depth: 0,
    pauses: 0,
    resumes: 0,
    sent: [] as string[],
    closed: [] as [number, string][],
    tokens: o.tokens ?? 1e9,
    submitted: 0,
    granted: [] as number[],
  };
  const waiting: ((r: BatchOutcome) => void)[] = [];
  const ok = (n: number): BatchOutcome => ({
    ok: true,
    results: Array.from({ length: n }, (_, i) => ({
      ok: true as const,
      hash: new Uint8Array(32).fill(i),
      hashHex: String(i).repeat(64).slice(0, 64),
      depth: 1,
      submittedAtMs: 0,
      submittedAtHeight: 0,
    })),
  });
  const d = {
    limits: {
      transactionWsInFlightMax: inFlightMax,
      transactionBodyBytesMax: 1000,
      transactionBatchBodyBytesMax: 10_000,
      transactionWsPendingBytesMax: o.pendingBytesMax,
    },
    ports: {
      transactions: {
        queueDepth: () => state.depth,
        queueCapacity: () => 10,
        submit: async () => {
          state.submitted++;
          const r = ok(1);
          return r.ok ? r.results[0] : r;
        },
        submitBatch: (_b: Uint8Array, _m: number, _s: string, budget?: BatchBudget) => {
          if (budget) state.granted.push(budget(2).granted);
          return new Promise<BatchOutcome>((resolve) => waiting.push(resolve));
        },
      },
    },
  } as unknown as RouteDeps;
  const take = (n: number) => {
    const granted = Math.min(n, state.tokens);
    state.tokens -= granted;
    return granted;
  };
  const rateLimiter = {
    take: () => (take(1) === 1 ? { ok: true } : { ok: false, retryAfterS: 3 }),
    takeUpTo: (_k: string, n: number) => ({ granted: take(n), retryAfterS: 3 }),
  };
  const app = { gateway: { metrics: { batchItems: { inc() {} } }, rateLimiter } } as unknown as GatewayApp;
  const socket = {
    OPEN: 1,
    readyState: 1,
    pause: () => void state.pauses++,
    resume: () => void state.resumes++,
  } as unknown as WebSocket;
  const ctx = {
    hasRoom: () => true,
    send: (s: string) => state.sent.push(s) > 0,
    close: (code: number, reason: string) => void state.closed.push([code, reason]),
  } as unknown as WsContext;
  const session = new SubmitSession(app, d, socket, ctx, 'client');
  return { state, session, release: (n: number) => waiting.shift()!(ok(n)) };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));
/** A bare batch whose count prefix says `n` items (the session reads only the prefix). */
const bareBatch = (n: number) => new Uint8Array([1, n, 0]);
/** A bare batch of one item, `bytes` long (only its length matters to the bounds). */
const bigBatch = (bytes: number) =>
  Uint8Array.from({ length: bytes }, (_, i) => (i === 0 ? 1 : i === 1 ? 1 : 0));
/** A framed SignedTransaction `bytes` long: the frame header of its schema, then filler. */
const frameSingle = (bytes: number) => {
  const out = new Uint8Array(bytes);
  out.set(FRAME_MAGIC);
  out.set([CODEC_VERSION, 0], 4);
  out.set(SCHEMA.schemaHash('SignedTransaction'), 6);
  return out;
};

describe('WebSocket submission backpressure', () => {
  it('pauses reading above the in-flight bound and resumes once answers go out, in order', async () => {
    const { state, session, release } = harness(3);
    session.receive(bareBatch(2), true);
    assert.equal(state.pauses, 0);
    session.receive(bareBatch(2), true);
    assert.equal(state.pauses, 1);
    await tick();
    release(2);
    await tick();
    assert.equal(state.resumes, 1);
    release(2);
    await tick();
    assert.deepEqual(
      state.sent.map((s) => JSON.parse(s).accepted),
      [2, 2],
    );
  });

  it('pauses reading while the transaction queue is full and resumes when it drains', async () => {
    const { state, session, release } = harness(100);
    state.depth = 10;
    session.receive(bareBatch(1), true);
    assert.equal(state.pauses, 1);
    await tick();
    assert.equal(state.sent.length, 0);
    state.depth = 0;
    await new Promise((resolve) => setTimeout(resolve, 60));
    release(1);
    await tick();
    assert.equal(state.sent.length, 1);
    assert.equal(state.resumes, 1);
  });

  it('pauses reading above the pending bytes bound whatever the item count', async () => {
    const { state, session } = harness(4096, { pendingBytesMax: 3000 });
    // Large messages counted as one item each: the item bound alone would never pause.
    session.receive(bigBatch(1500), true);
    session.receive(bigBatch(1400), true);
    assert.equal(state.pauses, 0);
    session.receive(bigBatch(200), true);
    assert.equal(state.pauses, 1);
    assert.deepEqual(state.closed, []);
  });

  it('closes 1008 when buffered messages keep growing the backlog after reading stopped', async () => {
    // Cap: 3000 pending + 10000 largest message + 64 KiB socket read.
    const { state, session } = harness(1_000_000, { pendingBytesMax: 3000 });
    for (let i = 0; i < 40 && state.closed.length === 0; i++) session.receive(bigBatch(5000), true);
    assert.equal(state.pauses, 1);
    assert.deepEqual(state.closed, [[1008, WS_BACKLOG_CLOSE_REASON]]);
  });

  it('answers a single transaction above the transaction body limit at once, keeping order', async () => {
    const { state, session, release } = harness(100);
    session.receive(bareBatch(2), true);
    session.receive(frameSingle(1001), true);
    await tick();
    assert.equal(state.submitted, 0);
    release(2);
    await tick();
    assert.equal(state.sent.length, 2);
    assert.equal(JSON.parse(state.sent[0]!).accepted, 2);
    const refused = JSON.parse(state.sent[1]!);
    assert.equal(refused.code, 'body_too_large');
    assert.deepEqual(refused.details, { bytes: 1001, limit: 1000 });
  });

  it('charges each item on the rate budget: a single transaction over it is refused rate_limited', async () => {
    const { state, session } = harness(100, { tokens: 1 });
    session.receive(frameSingle(100), true);
    session.receive(frameSingle(100), true);
    await tick();
    assert.equal(state.submitted, 1);
    const answers = state.sent.map((s) => JSON.parse(s));
    assert.equal(answers[0].accepted, 1);
    assert.equal(answers[1].refused, 1);
    assert.equal(answers[1].results[0].error.code, 'rate_limited');
    assert.deepEqual(answers[1].results[0].error.details, { retry_after_s: 3 });
  });

  it('charges a batch message its item count through the submission budget', async () => {
    const { state, session } = harness(100, { tokens: 1 });
    session.receive(bareBatch(2), true);
    await tick();
    assert.deepEqual(state.granted, [1]);
  });
});
