// Abuse scenario: requests the router refuses itself (bad percent-encoding, an overlong path
// parameter) run no Fastify hooks, so they skipped the per-client rate limiter. A client flooding them
// must spend its budget like any other: 429 `rate_limited` with Retry-After once the bucket is empty,
// for the malformed requests and for its ordinary ones.

import assert from 'node:assert/strict';
import { startServedNode } from '../helpers/served.js';
import { figure, jsonBodyOf, portOf, rawClient, statusOf, waitFor } from './clients.js';

async function get(port: number, path: string) {
  const c = await rawClient(port, '127.0.0.1');
  c.socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
  await waitFor('an answer', () => c.isClosed() || /\r\n\r\n[\s\S]*\}/.test(c.text()));
  c.socket.destroy();
  return { status: statusOf(c.text()), code: jsonBodyOf(c.text())?.code, text: c.text() };
}

export async function routerRejectionsRateLimited(size: { burst: number; requests: number }) {
  const t = await startServedNode({ 'gateway.rate_burst': size.burst, 'gateway.rate_per_ip_per_s': 1 });
  const port = portOf(t.url);
  try {
    const answers: Awaited<ReturnType<typeof get>>[] = [];
    const started = performance.now();
    for (let i = 0; i < size.requests; i++) answers.push(await get(port, `/v1/accounts/%zz${i}`));
    // The bucket refills at 1 token/s while the requests are sent one after another.
    const refill = Math.ceil((performance.now() - started) / 1_000) + 1;
    // Ordinary requests right after: the bucket holds at most the tokens refilled meanwhile, so one more
    // than that must meet a 429 (without the fix the burst would still be whole and all would pass).
    const ordinary: Awaited<ReturnType<typeof get>>[] = [];
    for (let i = 0; i <= refill; i++) ordinary.push(await get(port, '/health'));
    const ordinaryLimited = ordinary.filter((a) => a.status === 429).length;
    const count = (s: number) => answers.filter((a) => a.status === s).length;
    figure('router rejections and the rate limiter', {
      'malformed URLs': `${size.requests} sent, ${count(400)} answered 400, ${count(429)} refused 429`,
      burst: size.burst,
      'refilled while sending (1/s)': refill,
      'then /health': `${ordinary.length} sent, ${ordinaryLimited} refused 429`,
    });
    assert.ok(count(400) <= size.burst + refill, 'no more router answers than the burst and its refill');
    assert.ok(count(429) >= size.requests - size.burst - refill, 'the rest are rate limited');
    const limited = answers.find((a) => a.status === 429);
    assert.equal(limited?.code, 'rate_limited');
    assert.match(limited?.text ?? '', /\r\nretry-after: \d+\r\n/i);
    assert.ok(ordinaryLimited > 0, 'the flood spent the budget of the client');
  } finally {
    await t.stopAll();
  }
}
