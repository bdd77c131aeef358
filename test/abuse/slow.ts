// Abuse scenarios on connections (docs/design/testing.md):
// clients
// trickling headers or bodies from many addresses are cut off by the header and request timeouts while an
// ordinary client is served; one address opening more connections than its cap, then many addresses
// exceeding the total cap, are refused beyond the caps and nothing else is disturbed.

import assert from 'node:assert/strict';
import type { ServedTestNode } from '../helpers/served.js';
import { startServedNode } from '../helpers/served.js';
import { timingBound } from '../helpers/timing-bound.js';
import { figure, ip, portOf, type RawClient, rawClient, sleep, statusOf, waitFor } from './clients.js';

/** Node checks the header/request timeouts on this interval (gateway limits timeoutCheckIntervalMs default). */
const TIMEOUT_CHECK_MS = 1_000;
const TRICKLE_MS = 200;
/** Scheduling slack on a loaded 2-core machine. */
const LATE_SLACK_MS = 2_000;
const NORMAL_LATENCY_MAX_MS = 1_000;

export interface SlowSize {
  slowloris: number;
  slowBodies: number;
  headerTimeoutMs: number;
  requestTimeoutMs: number;
}

async function activeConnections(t: ServedTestNode): Promise<number> {
  const v = (await t.served.app.gateway.metrics.activeConnections.get()).values;
  return v.find((x) => x.labels.scheme === 'http')?.value ?? 0;
}

/** Keeps one slow client busy: a header line (or a body byte) every TRICKLE_MS until the node closes it. */
function trickle(c: RawClient, piece: (n: number) => string): void {
  let n = 0;
  const timer = setInterval(() => {
    if (c.isClosed()) clearInterval(timer);
    else c.socket.write(piece(n++));
  }, TRICKLE_MS);
  void c.closed.then(() => clearInterval(timer));
}

/** Ordinary requests on their own connection until `stop()`; every one must succeed, quickly. */
function ordinaryClient(url: string): { stop(): Promise<{ served: number; failed: number; maxMs: number }> } {
  let running = true;
  let served = 0;
  let failed = 0;
  let maxMs = 0;
  const loop = (async () => {
    for (let i = 0; running; i++) {
      const started = performance.now();
      const res = await fetch(`${url}${i % 2 === 0 ? '/health' : '/status'}`).catch(() => undefined);
      await res?.arrayBuffer();
      if (res?.status === 200) served++;
      else failed++;
      maxMs = Math.max(maxMs, performance.now() - started);
      await sleep(25);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { served, failed, maxMs };
    },
  };
}

/** Opens the slow clients: `slowloris` trickling header lines, `slowBodies` trickling a body. */
async function startSlowClients(
  port: number,
  size: SlowSize,
): Promise<{ loris: RawClient[]; bodies: RawClient[] }> {
  const open = (n: number, block: number) =>
    Promise.all(Array.from({ length: n }, (_, i) => rawClient(port, ip(block, i))));
  const loris = await open(size.slowloris, 20);
  for (const c of loris) {
    c.socket.write('GET /health HTTP/1.1\r\nHost: localhost\r\n');
    trickle(c, (n) => `X-Slow-${n}: 1\r\n`);
  }
  const bodies = await open(size.slowBodies, 21);
  const head = 'POST /v1/domains/query HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n';
  for (const c of bodies) {
    c.socket.write(`${head}Content-Length: 100000\r\n\r\n{`);
    trickle(c, () => ' ');
  }
  return { loris, bodies };
}

/**
 * Every close time at or after `earliest` (never before its timeout); the latest is a timing bound,
 * printed by `npm test` and asserted by the reliability suite (a loaded machine is late for its own reasons).
 */
function assertWithin(what: string, closedMs: number[], earliest: number, latest: number): void {
  for (const ms of closedMs) assert.ok(ms >= earliest, `${what} cut too early (${ms} ms)`);
  timingBound({ what: `${what} cut off at the latest`, value: Math.max(...closedMs), max: latest });
}

const spread = (ms: number[]) => `${Math.min(...ms)}–${Math.max(...ms)} ms`;

/** Slowloris headers and slow bodies from many addresses: all cut off by the timeouts, others served. */
export async function slowClients(size: SlowSize): Promise<void> {
  const t = await startServedNode({
    'gateway.header_timeout_ms': size.headerTimeoutMs,
    'gateway.request_timeout_ms': size.requestTimeoutMs,
  });
  try {
    const normal = ordinaryClient(t.url);
    const { loris, bodies } = await startSlowClients(portOf(t.url), size);
    const lorisMs = await Promise.all(loris.map((c) => c.closed));
    const bodyMs = await Promise.all(bodies.map((c) => c.closed));
    const ordinary = await normal.stop();
    const answered408 = [...loris, ...bodies].filter((c) => statusOf(c.text()) === 408).length;
    await waitFor('connections to be released', async () => (await activeConnections(t)) <= 1, 5_000);
    figure('slow clients', {
      slowloris: `${size.slowloris} cut after ${spread(lorisMs)} (header timeout ${size.headerTimeoutMs} ms)`,
      'slow bodies': `${size.slowBodies} cut after ${spread(bodyMs)} (request timeout ${size.requestTimeoutMs} ms)`,
      'answered 408 request_timeout': answered408,
      'ordinary requests served': ordinary.served,
      failed: ordinary.failed,
      'ordinary max ms': ordinary.maxMs,
    });
    const late = TIMEOUT_CHECK_MS + LATE_SLACK_MS;
    assertWithin('slowloris', lorisMs, size.headerTimeoutMs - 100, size.headerTimeoutMs + late);
    assertWithin('slow body', bodyMs, size.requestTimeoutMs - 100, size.requestTimeoutMs + late);
    assert.equal(ordinary.failed, 0);
    assert.ok(ordinary.served > 0);
    timingBound({
      what: 'an ordinary request beside slow clients, at worst',
      value: ordinary.maxMs,
      max: NORMAL_LATENCY_MAX_MS,
    });
  } finally {
    await t.stopAll();
  }
}

export interface CapSize {
  perIpMax: number;
  totalMax: number;
  /** Connections attempted beyond the per-IP cap from one address. */
  extra: number;
}

const settle = () => sleep(300);

/** Connections beyond the per-IP cap are dropped at once; so are those beyond the total; others served. */
export async function connectionCaps(size: CapSize): Promise<void> {
  const t = await startServedNode({
    'gateway.connections_per_ip_max': size.perIpMax,
    'gateway.connections_max': size.totalMax,
  });
  const port = portOf(t.url);
  const held: RawClient[] = [];
  try {
    const one = ip(22, 0);
    for (let i = 0; i < size.perIpMax + size.extra; i++) held.push(await rawClient(port, one));
    await settle();
    const refusedPerIp = held.filter((c) => c.isClosed()).length;
    const kept = held.filter((c) => !c.isClosed());
    for (const c of kept) c.socket.write('GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await waitFor('answers on the kept connections', () =>
      kept.every((c) => statusOf(c.text()) !== undefined),
    );
    const keptServed = kept.filter((c) => statusOf(c.text()) === 200).length;
    const other = await rawClient(port, ip(22, 1));
    other.socket.write('GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    await other.closed;
    const otherStatus = statusOf(other.text());

    const before = await activeConnections(t);
    const attempts = size.totalMax;
    const crowd: RawClient[] = [];
    for (let i = 0; i < attempts; i++) crowd.push(await rawClient(port, ip(23, i)));
    held.push(...crowd);
    await settle();
    const crowdOpen = crowd.filter((c) => !c.isClosed()).length;
    const open = await activeConnections(t);
    const rejected = await t.served.app.gateway.metrics.registry.getSingleMetricAsString(
      'http_rejected_requests_total',
    );
    figure('connection caps', {
      [`one address, ${size.perIpMax + size.extra} connections, cap ${size.perIpMax}`]: `${refusedPerIp} refused, ${keptServed} kept and served`,
      'another address meanwhile': otherStatus,
      [`${attempts} more from ${attempts} addresses, total cap ${size.totalMax}`]: `${crowdOpen} accepted, ${attempts - crowdOpen} refused`,
      'open connections': open,
    });
    assert.equal(refusedPerIp, size.extra, 'exactly the connections beyond the per-IP cap are refused');
    assert.equal(keptServed, size.perIpMax);
    assert.equal(otherStatus, 200);
    assert.equal(crowdOpen, size.totalMax - before, 'the total cap admits exactly up to its size');
    assert.equal(open, size.totalMax);
    assert.match(rejected, new RegExp(`reason="too_many_connections"\\} ${size.extra}\\b`));
    for (const c of held) c.socket.destroy();
    await waitFor('connections to be released', async () => (await activeConnections(t)) === 0, 5_000);
    assert.equal((await fetch(`${t.url}/health`)).status, 200, 'served again once the crowd left');
  } finally {
    for (const c of held) c.socket.destroy();
    await t.stopAll();
  }
}
