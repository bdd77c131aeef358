// The WebSocket submission session's backpressure: it stops reading its socket above the in-flight bound
// and while the transaction queue is full, resumes when they clear, and answers messages in order.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { WebSocket } from 'ws';
import type { GatewayApp } from '../context.js';
import type { RouteDeps } from '../deps.js';
import type { BatchOutcome } from '../ports.js';
import type { WsContext } from '../ws.js';
import { SubmitSession } from './transaction-ws.js';

function harness(inFlightMax: number) {
  const state = { depth: 0, pauses: 0, resumes: 0, sent: [] as string[] };
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
    limits: { transactionWsInFlightMax: inFlightMax },
    ports: {
      transactions: {
        queueDepth: () => state.depth,
        queueCapacity: () => 10,
        submit: async () => ok(1),
        submitBatch: () => new Promise<BatchOutcome>((resolve) => waiting.push(resolve)),
      },
    },
  } as unknown as RouteDeps;
  const app = { gateway: { metrics: { batchItems: { inc() {} } } } } as unknown as GatewayApp;
  const socket = {
    OPEN: 1,
    readyState: 1,
    pause: () => void state.pauses++,
    resume: () => void state.resumes++,
  } as unknown as WebSocket;
  const ctx = {
    hasRoom: () => true,
    send: (s: string) => state.sent.push(s) > 0,
    close() {},
  } as unknown as WsContext;
  const session = new SubmitSession(app, d, socket, ctx, 'client');
  return { state, session, release: (n: number) => waiting.shift()!(ok(n)) };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));
/** A bare batch whose count prefix says `n` items (the session reads only the prefix). */
const bareBatch = (n: number) => new Uint8Array([1, n, 0]);

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
});
