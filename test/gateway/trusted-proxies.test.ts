// Behind a reverse proxy (docs/operations.md "Behind a reverse proxy"): with gateway.trusted_proxies
// naming the proxy, each client X-Forwarded-For names gets its own rate-limit bucket, over HTTP and on
// the WebSocket upgrade alike; without it, the header is ignored and every client behind the proxy
// shares the proxy's bucket (a client cannot dodge its limit by writing the header itself).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';

const LIMITS = { 'gateway.rate_per_ip_per_s': 1, 'gateway.rate_burst': 2 };

async function status(url: string, forwardedFor: string): Promise<number> {
  const res = await fetch(`${url}/status`, { headers: { 'x-forwarded-for': forwardedFor } });
  await res.arrayBuffer();
  return res.status;
}

function upgrade(url: string, forwardedFor: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/events`, {
      headers: { 'x-forwarded-for': forwardedFor },
    });
    ws.once('open', () => {
      ws.close();
      resolve(101);
    });
    ws.once('unexpected-response', (_req, res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    ws.once('error', reject);
  });
}

describe('gateway.trusted_proxies set to the proxy', () => {
  let t: ServedTestNode;
  before(async () => {
    t = await startServedNode({ ...LIMITS, 'gateway.trusted_proxies': ['127.0.0.1', '::1'] });
  });
  after(() => t?.stopAll());

  it('gives each forwarded client its own bucket over HTTP and WebSocket', async () => {
    const a = [await status(t.url, '198.51.100.1'), await status(t.url, '198.51.100.1')];
    assert.deepEqual(a, [200, 200]);
    assert.equal(await status(t.url, '198.51.100.1'), 429);
    assert.equal(await status(t.url, '198.51.100.2'), 200);
    assert.equal(await upgrade(t.url, '198.51.100.1'), 429);
    assert.equal(await upgrade(t.url, '198.51.100.3'), 101);
  });
});

describe('gateway.trusted_proxies empty (the default)', () => {
  let t: ServedTestNode;
  before(async () => {
    t = await startServedNode(LIMITS);
  });
  after(() => t?.stopAll());

  it('ignores X-Forwarded-For: every client shares the socket peer bucket', async () => {
    assert.equal(await status(t.url, '198.51.100.1'), 200);
    assert.equal(await status(t.url, '198.51.100.2'), 200);
    assert.equal(await status(t.url, '198.51.100.3'), 429);
    assert.equal(await upgrade(t.url, '198.51.100.4'), 429);
  });
});
