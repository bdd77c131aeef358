import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { WebSocket } from 'ws';
import type { GatewayApp } from './context.js';
import type { GatewayLimits } from './limits.js';
import type { TelemetryProfile } from './profiles.js';
import { createGatewayServer } from './server.js';
import { registerWsRoute, WS_CLOSE, type WsContext } from './ws.js';

interface Harness {
  app: GatewayApp;
  url: string;
  serverCloses: number[];
  refusedSends: number;
}

async function harness(limits: Partial<GatewayLimits>): Promise<Harness> {
  const app = await createGatewayServer({ logLevel: 'silent', limits: { ratePerSecond: 0, ...limits } });
  const h: Harness = { app, url: '', serverCloses: [], refusedSends: 0 };
  registerWsRoute(
    app,
    '/events',
    (_socket, first, ctx: WsContext) => {
      ctx.onClose((code) => h.serverCloses.push(code));
      const request = first.toString('utf8');
      if (request === 'flood') {
        const chunk = Buffer.alloc(64 * 1024, 1);
        const pump = () => {
          for (let i = 0; i < 16; i++) {
            if (!ctx.send(chunk)) {
              h.refusedSends += 1;
              return;
            }
          }
          setImmediate(pump);
        };
        pump();
        return;
      }
      const slots = [ctx.acquireSubscription(), ctx.acquireSubscription(), ctx.acquireSubscription()];
      ctx.send(JSON.stringify({ echo: request, slots }));
    },
    { operationId: 'subscribeEvents', summary: 'events' },
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  h.url = `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return h;
}

/** Polls `cond` until it holds; fails (instead of hanging) after `timeoutMs`. */
async function waitUntil(
  cond: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

function closed(ws: WebSocket): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
}

function refused(ws: WebSocket): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    ws.on('open', () => reject(new Error('unexpectedly upgraded')));
    ws.on('error', () => {});
    ws.on('unexpected-response', (_req, res: IncomingMessage) => {
      let body = '';
      res.on('data', (d) => {
        body += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
  });
}

describe('WebSocket plumbing', { timeout: 60_000 }, () => {
  let h: Harness;
  before(async () => {
    h = await harness({ wsFirstMessageTimeoutMs: 150, wsFrameBytesMax: 1024, wsSubscriptionsMax: 2 });
  });
  after(() => h.app.close());

  it('hands the first message to the handler; version headers on the handshake; subscription cap', async () => {
    const ws = new WebSocket(`${h.url}/events`);
    const upgrade = new Promise<IncomingMessage>((resolve) => ws.on('upgrade', resolve));
    await new Promise((resolve) => ws.on('open', resolve));
    assert.equal((await upgrade).headers['x-ledger-api-version'], '1');
    const reply = new Promise<string>((resolve) => ws.once('message', (d) => resolve(d.toString())));
    ws.send('filters');
    assert.deepEqual(JSON.parse(await reply), { echo: 'filters', slots: [true, true, false] });
    ws.close();
  });

  it('closes 1008 when the first message does not arrive in time', async () => {
    const ws = new WebSocket(`${h.url}/events`);
    const started = Date.now();
    const { code, reason } = await closed(ws);
    assert.equal(code, WS_CLOSE.policyViolation);
    assert.equal(reason, 'first message timeout');
    assert.ok(Date.now() - started >= 140);
  });

  it('closes 1009 on a message above the frame limit', async () => {
    const ws = new WebSocket(`${h.url}/events`);
    await new Promise((resolve) => ws.on('open', resolve));
    ws.send(Buffer.alloc(2048));
    assert.equal((await closed(ws)).code, WS_CLOSE.messageTooBig);
  });

  it('upgrades on other paths get 404; a plain GET on the WebSocket path gets 426', async () => {
    const other = await refused(new WebSocket(`${h.url}/elsewhere`));
    assert.equal(other.status, 404);
    assert.equal(JSON.parse(other.body).code, 'not_found');
    const plain = await h.app.inject({ method: 'GET', url: '/events' });
    assert.equal(plain.statusCode, 426);
    assert.equal(plain.json().code, 'upgrade_required');
    assert.equal(plain.headers.upgrade, 'websocket');
  });
});

describe('WebSocket limits', { timeout: 60_000 }, () => {
  it('refuses clients over the server cap with 503 too_many_connections', async () => {
    const h = await harness({ wsClientsMax: 1 });
    try {
      const first = new WebSocket(`${h.url}/events`);
      await new Promise((resolve) => first.on('open', resolve));
      const second = await refused(new WebSocket(`${h.url}/events`));
      assert.equal(second.status, 503);
      assert.equal(JSON.parse(second.body).code, 'too_many_connections');
      first.close();
    } finally {
      await h.app.close();
    }
  });

  it('closing the server closes WebSocket clients with 1001', async () => {
    const h = await harness({});
    const ws = new WebSocket(`${h.url}/events`);
    await new Promise((resolve) => ws.on('open', resolve));
    ws.send('hello');
    const done = closed(ws);
    await h.app.close();
    assert.equal((await done).code, WS_CLOSE.goingAway);
  });

  it('pings: a client answering pongs stays, one that does not is terminated', async () => {
    // Long enough that an event-loop stall on a loaded machine never looks like a missing pong.
    const h = await harness({ wsPingIntervalMs: 200 });
    try {
      const good = new WebSocket(`${h.url}/events`);
      const mute = new WebSocket(`${h.url}/events`, { autoPong: false });
      let pings = 0;
      good.on('ping', () => {
        pings += 1;
      });
      await Promise.all([good, mute].map((ws) => new Promise((resolve) => ws.on('open', resolve))));
      good.send('hello');
      mute.send('hello');
      const muteClosed = closed(mute);
      assert.equal((await muteClosed).code, 1006, 'terminated without a close frame');
      await waitUntil(() => pings >= 3, 'three pings');
      assert.equal(good.readyState, WebSocket.OPEN);
      assert.ok(pings >= 3, `${pings} pings`);
      good.close();
    } finally {
      await h.app.close();
    }
  });

  it('a client that stops reading is closed 1013 lagged with a bounded buffer', async () => {
    const h = await harness({ wsSendQueueMax: 64, wsSendBufferBytesMax: 1 << 20, streamCloseGraceMs: 5_000 });
    try {
      const ws = new WebSocket(`${h.url}/events`);
      await new Promise((resolve) => ws.on('open', resolve));
      const done = closed(ws);
      ws.send('flood');
      ws.pause();
      await waitUntil(() => h.refusedSends > 0, 'the server to refuse a send');
      assert.equal(h.refusedSends, 1, 'the server stopped queueing');
      ws.resume(); // reads the backlog, then the close frame
      assert.deepEqual(await done, { code: WS_CLOSE.tryAgainLater, reason: 'lagged' });
      await waitUntil(() => h.serverCloses.length > 0, 'the server-side close');
      assert.deepEqual(h.serverCloses, [WS_CLOSE.tryAgainLater]);
      await waitUntil(() => h.app.gateway.streams.count('ws') === 0, 'the stream slot to free');
      const gauge = await h.app.gateway.metrics.activeStreams.get();
      assert.deepEqual(
        gauge.values.map((v) => [v.labels.kind, v.value]),
        [['ws', 0]],
      );
    } finally {
      await h.app.close();
    }
  });
});

describe('WebSocket routes and the telemetry profile', () => {
  async function gated(profile: TelemetryProfile): Promise<{ app: GatewayApp; url: string }> {
    const app = await createGatewayServer({ logLevel: 'silent', limits: { ratePerSecond: 0 } });
    registerWsRoute(app, '/v1/status/ws', (_socket, _first, ctx) => ctx.send('ok'), {
      operationId: 'statusSocket',
      summary: 'a status-level socket',
      gate: { visibility: 'status', profile },
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    return { app, url: `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}/v1/status/ws` };
  }

  it('a profile that does not serve the route refuses the upgrade with 503 telemetry_profile_restricted', async () => {
    const { app, url } = await gated('disabled');
    try {
      const r = await refused(new WebSocket(url));
      assert.equal(r.status, 503);
      assert.equal(JSON.parse(r.body).code, 'telemetry_profile_restricted');
      assert.equal(app.gateway.streams.count('ws'), 0, 'no stream slot taken');
    } finally {
      await app.close();
    }
  });

  it('a profile that serves it upgrades', async () => {
    const { app, url } = await gated('operator');
    try {
      const ws = new WebSocket(url);
      await new Promise((resolve, reject) => {
        ws.on('open', resolve);
        ws.on('error', reject);
      });
      ws.close();
    } finally {
      await app.close();
    }
  });
});
