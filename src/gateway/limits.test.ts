// Limits over REAL sockets: header flood, connection caps, slowloris, chunked body over the limit.

import assert from 'node:assert/strict';
import { request } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Type } from 'typebox';
import { timingBound } from '../../test/helpers/timing-bound.js';
import type { GatewayApp } from './context.js';
import type { GatewayLimits } from './limits.js';
import { disabledOperatorAuth } from './operator-auth.js';
import { registerRoutes } from './route-table.js';
import { createGatewayServer } from './server.js';

async function listening(limits: Partial<GatewayLimits>): Promise<{ app: GatewayApp; port: number }> {
  const app = await createGatewayServer({ logLevel: 'silent', limits: { ratePerSecond: 0, ...limits } });
  registerRoutes(
    app,
    [
      {
        method: 'POST',
        url: '/v1/echo',
        operationId: 'postEcho',
        summary: 'echo',
        tags: ['test'],
        visibility: 'public',
        bodyBytesMax: 1024,
        schema: { body: Type.Object({}, { additionalProperties: true }) },
        handler: async (req) => req.body,
      },
    ],
    { profile: 'full', operatorAuth: disabledOperatorAuth() },
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, port: (app.server.address() as AddressInfo).port };
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

const openConnections = (app: GatewayApp) =>
  new Promise<number>((resolve) => app.server.getConnections((_e, n) => resolve(n)));

interface RawResult {
  data: string;
  closedAfterMs: number;
}

/** Opens a socket, lets `drive` write to it, and collects everything until the server closes it. */
function raw(port: number, drive: (s: Socket) => void, timeoutMs = 5_000): Promise<RawResult> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const s = connect(port, '127.0.0.1');
    let data = '';
    const timer = setTimeout(() => {
      s.destroy();
      reject(new Error(`socket still open after ${timeoutMs} ms; got ${JSON.stringify(data.slice(0, 200))}`));
    }, timeoutMs);
    s.on('data', (d) => {
      data += d.toString('latin1');
    });
    s.on('error', () => {}); // ECONNRESET / EPIPE are expected outcomes here
    s.on('close', () => {
      clearTimeout(timer);
      resolve({ data, closedAfterMs: Date.now() - started });
    });
    s.on('connect', () => drive(s));
  });
}

function openIdle(port: number): Promise<Socket> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1', () => resolve(s));
    s.on('error', () => {});
  });
}

function get(port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const r = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    r.on('error', reject);
    r.end();
  });
}

describe('limits over real sockets', { timeout: 60_000 }, () => {
  it('header flood -> 431 headers_too_large', async () => {
    const { app, port } = await listening({ headerBytesMax: 4096 });
    try {
      const r = await raw(port, (s) => {
        s.write(`GET /openapi.json HTTP/1.1\r\nHost: localhost\r\nX-Flood: ${'a'.repeat(8000)}\r\n\r\n`);
      });
      assert.match(r.data, /^HTTP\/1\.1 431 /);
      assert.match(r.data, /"code":"headers_too_large"/);
      assert.match(r.data, /x-ledger-api-version: 1/);
    } finally {
      await app.close();
    }
  });

  it('connections per IP: the socket over the cap is closed at once; a slot frees on close', async () => {
    const { app, port } = await listening({ connectionsPerIpMax: 3 });
    try {
      const held = await Promise.all([openIdle(port), openIdle(port), openIdle(port)]);
      await waitUntil(async () => (await openConnections(app)) === 3, 'three connections');
      const refused = await raw(
        port,
        (s) => s.write('GET /openapi.json HTTP/1.1\r\nHost: localhost\r\n\r\n'),
        2_000,
      );
      assert.equal(refused.data, '', 'no answer over the cap');
      held[0]!.destroy();
      await waitUntil(async () => (await openConnections(app)) === 2, 'a slot to free');
      assert.equal(await get(port, '/openapi.json'), 200);
      const metrics = await app.gateway.metrics.registry.getSingleMetricAsString(
        'http_rejected_requests_total',
      );
      assert.match(metrics, /reason="too_many_connections"\} 1/);
      for (const s of held) s.destroy();
    } finally {
      await app.close();
    }
  });

  it('connections in total are capped by server.maxConnections', async () => {
    const { app, port } = await listening({ connectionsMax: 2 });
    try {
      const held = await Promise.all([openIdle(port), openIdle(port)]);
      await waitUntil(async () => (await openConnections(app)) === 2, 'two connections');
      const refused = await raw(
        port,
        (s) => s.write('GET /openapi.json HTTP/1.1\r\nHost: localhost\r\n\r\n'),
        2_000,
      );
      assert.equal(refused.data, '');
      for (const s of held) s.destroy();
    } finally {
      await app.close();
    }
  });

  it('slowloris: trickled headers are cut off by the headers timeout while others are served', async () => {
    const { app, port } = await listening({
      headersTimeoutMs: 400,
      requestTimeoutMs: 2_000,
      timeoutCheckIntervalMs: 50,
    });
    try {
      let trickle: NodeJS.Timeout | undefined;
      const slow = raw(port, (s) => {
        s.write('GET /openapi.json HTTP/1.1\r\nHost: localhost\r\n');
        let n = 0;
        trickle = setInterval(() => {
          if (!s.destroyed) s.write(`X-Slow-${n++}: 1\r\n`);
        }, 100);
      });
      await sleep(150);
      assert.equal(await get(port, '/openapi.json'), 200, 'another client is served meanwhile');
      const r = await slow;
      clearInterval(trickle);
      assert.ok(r.closedAfterMs >= 350, `closed after ${r.closedAfterMs} ms, before its timeout`);
      timingBound({ what: 'slow-header client closed after', value: r.closedAfterMs, max: 2_000 });
      assert.match(r.data, /^HTTP\/1\.1 408 /);
      assert.match(r.data, /"code":"request_timeout"/);
    } finally {
      await app.close();
    }
  });

  it('chunked body over the route limit -> 413 before the whole body is read', async () => {
    const { app, port } = await listening({});
    try {
      const status = await new Promise<number>((resolve, reject) => {
        const r = request(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: '/v1/echo',
            agent: false,
            headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        r.on('error', reject);
        r.write('{"pad":"');
        // Far more than the 1 KiB limit, written slowly enough that the answer comes first.
        let sent = 0;
        const pump = setInterval(() => {
          if (r.destroyed || sent > 64) {
            clearInterval(pump);
            if (!r.destroyed) r.end('"}');
            return;
          }
          r.write('x'.repeat(512));
          sent += 1;
        }, 5);
      });
      assert.equal(status, 413);
    } finally {
      await app.close();
    }
  });
});
