// The event hub's fan-out over real sockets: SSE and WebSocket subscribers of one EventHub (as
// routes/streams.ts wires them), with a subscriber that never reads beside ones that do.

// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../modules/registry.js';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep, setImmediate as tick } from 'node:timers/promises';
import { WebSocket } from 'ws';
import { timingBound } from '../../test/helpers/timing-bound.js';
import type { Event } from '../model/events.js';
import { createSchemaRegistry } from '../model/schema.js';
import { QUERY_LANGUAGE } from '../node/query-language.js';
import { EventBus } from '../pipeline/event-bus.js';
import { appliedEventId } from '../pipeline/event-id.js';
import type { GatewayApp } from './context.js';
import { EventHub } from './event-hub.js';
import { disabledOperatorAuth } from './operator-auth.js';
import { registerRoutes } from './route-table.js';
import { createGatewayServer } from './server.js';
import { serveSse } from './sse.js';
import { registerWsRoute } from './ws.js';
import { EventSocketSession, parseEventRequest } from './ws-events.js';

const schema = createSchemaRegistry();
const block = (height: number): Event => ({
  kind: 'Block',
  height,
  hash: new Uint8Array(32).fill(height % 251),
  status: { kind: 'Applied' },
});

interface Harness {
  app: GatewayApp;
  port: number;
  bus: EventBus;
  hub: EventHub;
  sse: number;
}

async function harness(): Promise<Harness> {
  const app = await createGatewayServer({
    logLevel: 'silent',
    limits: { ratePerSecond: 0, sseClientsPerIpMax: 64, wsClientsPerIpMax: 64, sseQueueEventsMax: 200 },
  });
  const bus = new EventBus(100_000);
  const hub = new EventHub(bus, schema, (err) => {
    throw err;
  });
  const h: Harness = { app, port: 0, bus, hub, sse: 0 };
  registerRoutes(
    app,
    [
      {
        method: 'GET',
        url: '/sse',
        operationId: 'sse',
        summary: 'events',
        tags: ['streams'],
        visibility: 'public',
        formats: { default: 'sse', offers: ['sse'] },
        schema: {},
        handler: (req, reply) => {
          h.sse++;
          serveSse(req, reply, hub, { filter: () => true, filterKey: 'all' });
        },
      },
    ],
    { profile: 'full', operatorAuth: disabledOperatorAuth() },
  );
  registerWsRoute(
    app,
    '/events',
    (_socket, first, ctx, binary) => {
      const parsed = parseEventRequest(first, binary, { schema, filterDepthMax: 8, query: QUERY_LANGUAGE });
      assert.ok(parsed.ok);
      new EventSocketSession(ctx, parsed.request, 200).start(hub);
    },
    { operationId: 'events', summary: 'events' },
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  h.port = (app.server.address() as AddressInfo).port;
  return h;
}

/** An SSE reader collecting event ids (and the time each arrived). */
function sseReader(port: number) {
  const got: { id: number; at: number }[] = [];
  let pending = '';
  const req = request({ host: '127.0.0.1', port, path: '/sse', agent: false }, (res) => {
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      pending += chunk;
      for (const m of pending.matchAll(/^id: (\d+)$/gm)) got.push({ id: Number(m[1]), at: Date.now() });
      pending = pending.slice(pending.lastIndexOf('\n') + 1);
    });
  });
  req.end();
  return { got, close: () => req.destroy() };
}

function wsReader(port: number) {
  const got: { id: number; at: number }[] = [];
  const ws = new WebSocket(`ws://127.0.0.1:${port}/events`);
  ws.on('open', () => ws.send('{}'));
  ws.on('message', (data) =>
    got.push({ id: (JSON.parse(String(data)) as { id: number }).id, at: Date.now() }),
  );
  return { got, ws, close: () => ws.terminate() };
}

/** A client that subscribes and then never reads: its socket buffers fill up. */
function stalled(port: number, raw: string): Socket {
  const s = connect(port, '127.0.0.1', () => s.write(raw));
  s.pause();
  return s;
}

async function waitUntil(cond: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

describe('event fan-out over sockets', { timeout: 60_000 }, () => {
  let h: Harness;
  before(async () => {
    h = await harness();
  });
  after(() => h.app.close());

  it('a subscriber that does not read never delays the others; each gets every event, in order', async () => {
    const slowSse = stalled(h.port, 'GET /sse HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const key = Buffer.alloc(16, 7).toString('base64');
    const slowWs = stalled(
      h.port,
      `GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    );
    slowWs.once('connect', () =>
      setTimeout(() => slowWs.write(Buffer.from([0x81, 0x82, 0, 0, 0, 0, 0x7b, 0x7d])), 50),
    );
    const fastSse = sseReader(h.port);
    const fastWs = wsReader(h.port);
    await waitUntil(() => h.hub.subscriberCount === 4, 'four subscribers');
    const expected: number[] = [];
    let height = 0;
    // Bursts of blocks, as commits come, until the stalled subscribers' buffers are full and they are
    // cut off (lagged); the readers must keep receiving meanwhile.
    for (let burst = 0; burst < 60 && (h.hub.subscriberCount > 2 || burst < 5); burst++) {
      for (let i = 0; i < 500; i++) {
        h.bus.publishBlock(++height, [block(height)]);
        expected.push(appliedEventId(height));
      }
      await tick();
      await sleep(1);
    }
    assert.equal(h.hub.subscriberCount, 2, 'the stalled subscribers were cut off as lagged');
    const t0 = Date.now();
    h.bus.publishBlock(++height, [block(height)]);
    expected.push(appliedEventId(height));
    const last = expected.at(-1);
    await waitUntil(
      () => fastSse.got.at(-1)?.id === last && fastWs.got.at(-1)?.id === last,
      'the last event at both readers',
      5_000,
    );
    timingBound({ what: 'the last event at both fast readers', value: Date.now() - t0, max: 2_000 });
    assert.deepEqual(
      fastSse.got.map((g) => g.id),
      expected,
    );
    assert.deepEqual(
      fastWs.got.map((g) => g.id),
      expected,
    );
    for (const c of [fastSse, fastWs]) c.close();
    for (const s of [slowSse, slowWs]) s.destroy();
    await waitUntil(() => h.hub.subscriberCount === 0, 'every subscriber gone');
  });

  it('subscribers with the same filter share one filter run and one batch per burst', async () => {
    const readers = Array.from({ length: 20 }, () => sseReader(h.port));
    await waitUntil(() => h.hub.subscriberCount === 20, 'twenty subscribers');
    const before = { ...h.hub.stats };
    const from = h.bus.lastId();
    for (let i = 0; i < 5; i++) h.bus.publishBlock(appliedHeight(h) + 1, [block(appliedHeight(h) + 1)]);
    await waitUntil(() => readers.every((r) => r.got.length === 5), 'five events at every reader');
    assert.equal(h.hub.stats.filterRuns - before.filterRuns, 5, 'one group: one run per event');
    assert.equal(h.hub.stats.batches - before.batches, 1, 'one batch for the twenty subscribers');
    for (const r of readers) assert.ok(r.got.every((g) => g.id > from));
    for (const r of readers) r.close();
    await waitUntil(() => h.hub.subscriberCount === 0, 'every subscriber gone');
  });
});

function appliedHeight(h: Harness): number {
  return Math.floor(h.bus.lastId() / 2 ** 24);
}
