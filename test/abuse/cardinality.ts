// Abuse scenario on metrics (docs/design/testing.md):
// thousands of
// requests to made-up paths, real routes with random ids and query strings, odd methods, bad headers,
// malformed HTTP and WebSocket upgrades to random paths. Every label value must come from a fixed set
// (route patterns, methods, status codes, registry error codes), no requested text may leak into the
// exposition, and the series count must saturate: the second half of the run adds (almost) nothing.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Pool } from 'undici';
import { type PromFamily, parsePrometheusText, seriesCount } from '../helpers/prom-parse.js';
import { startServedNode } from '../helpers/served.js';
import { figure, ip, portOf, rawClient } from './clients.js';

export interface CardinalitySize {
  requests: number;
}

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'PROPFIND'];
const KNOWN_METHOD_LABELS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'OTHER']);
const ID_ROUTES = [
  '/v1/accounts/',
  '/v1/domains/',
  '/status/',
  '/v1/explorer/blocks/',
  '/v1/explorer/transactions/',
  '/v1/nfts/',
];
const LIST_ROUTES = ['/v1/domains', '/v1/accounts', '/v1/explorer/blocks', '/status', '/v1/events/sse'];
/** New series the second half may still add (a rare status of some route), against thousands of requests. */
const SECOND_HALF_NEW_SERIES_MAX = 20;
const CONCURRENCY = 8;

function request(
  i: number,
  token: string,
): { method: string; path: string; headers: Record<string, string> } {
  const method = METHODS[i % METHODS.length]!;
  const headers: Record<string, string> = {};
  if (i % 7 === 0) headers.accept = `application/${token}`;
  if (i % 11 === 0) headers['x-ledger-api-version'] = token.slice(0, 3);
  switch (i % 4) {
    case 0:
      return { method, path: `/${token}/${i}?${token}=${i}`, headers };
    case 1:
      return { method: 'GET', path: `${ID_ROUTES[i % ID_ROUTES.length]}${token}`, headers };
    case 2:
      return {
        method: 'GET',
        path: `${LIST_ROUTES[i % LIST_ROUTES.length]}?limit=${token}&${token}=1`,
        headers,
      };
    default:
      return { method, path: `/v1/${token}%zz/${'x'.repeat(i % 200)}`, headers };
  }
}

/** Malformed HTTP and an upgrade to a random path, on raw sockets (answers not read). */
async function rawOdd(port: number, i: number, token: string): Promise<void> {
  const c = await rawClient(port, ip(60, i));
  c.socket.write(
    i % 2 === 0
      ? `${token.toUpperCase()} /${token} HTTP/1.1\r\nHost: localhost\r\n\r\n`
      : `GET /${token} HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
  );
  await Promise.race([c.closed, new Promise((r) => setTimeout(r, 500))]);
  c.socket.destroy();
}

function labelValues(f: Map<string, PromFamily>, family: string, label: string): Set<string> {
  return new Set(
    (f.get(family)?.samples ?? []).map((s) => s.labels[label]).filter((v): v is string => v !== undefined),
  );
}

/** `requests` hostile requests over `CONCURRENCY` lanes (1 in 50 also sends raw malformed HTTP). */
async function hostileRequests(
  url: string,
  pool: Pool,
  from: number,
  to: number,
  tokens: string[],
): Promise<void> {
  let next = from;
  const lane = async () => {
    while (next < to) {
      const i = next++;
      const token = randomBytes(6).toString('hex');
      tokens.push(token);
      if (i % 50 === 0) await rawOdd(portOf(url), i, token);
      const r = request(i, token);
      const res = await pool.request({ method: r.method as 'GET', path: r.path, headers: r.headers });
      if (String(res.headers['content-type']).startsWith('text/event-stream')) res.body.destroy();
      else await res.body.dump();
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
}

export async function metricsCardinality(size: CardinalitySize): Promise<void> {
  const t = await startServedNode({
    'telemetry.profile': 'full',
    'gateway.rate_per_ip_per_s': 1_000_000,
    'gateway.rate_burst': 1_000_000,
  });
  const pool = new Pool(t.url, { connections: CONCURRENCY });
  const tokens: string[] = [];
  const scrape = async () => {
    const text = await (await fetch(`${t.url}/metrics`)).text();
    return { text, families: parsePrometheusText(text) };
  };
  try {
    const before = await scrape();
    await hostileRequests(t.url, pool, 0, size.requests / 2, tokens);
    const middle = await scrape();
    await hostileRequests(t.url, pool, size.requests / 2, size.requests, tokens);
    const end = await scrape();
    const f = end.families;
    const patterns = new Set([...t.served.app.gateway.routes.map((r) => r.url), 'unmatched']);
    const codes = new Set(Object.keys(t.served.app.gateway.errors.specs));
    const routes = labelValues(f, 'http_requests_total', 'route');
    const methods = labelValues(f, 'http_requests_total', 'method');
    const statuses = labelValues(f, 'http_requests_total', 'status');
    const reasons = labelValues(f, 'http_rejected_requests_total', 'reason');
    const leaked = tokens.filter((tk) => end.text.includes(tk));
    const secondHalf = seriesCount(f) - seriesCount(middle.families);
    figure('metrics cardinality', {
      requests: `${size.requests} (+${Math.ceil(size.requests / 50)} raw malformed / upgrades)`,
      series: `${seriesCount(before.families)} before, ${seriesCount(middle.families)} at half, ${seriesCount(f)} after`,
      'added by the second half': secondHalf,
      'label values': `${routes.size} routes, ${methods.size} methods, ${statuses.size} statuses, ${reasons.size} rejection reasons`,
      '/metrics bytes': `${before.text.length} → ${end.text.length}`,
      'requested tokens leaked': leaked.length,
    });
    assert.deepEqual(
      [...routes].filter((r) => !patterns.has(r)),
      [],
      'route labels are patterns',
    );
    assert.deepEqual(
      [...methods].filter((m) => !KNOWN_METHOD_LABELS.has(m)),
      [],
    );
    assert.deepEqual(
      [...statuses].filter((s) => !/^[1-5]\d\d$/.test(s)),
      [],
    );
    assert.deepEqual(
      [...reasons].filter((r) => !codes.has(r)),
      [],
      'rejection reasons are registry codes',
    );
    assert.deepEqual(leaked.slice(0, 5), []);
    assert.ok(secondHalf <= SECOND_HALF_NEW_SERIES_MAX, `the second half added ${secondHalf} series`);
  } finally {
    await pool.close();
    await t.stopAll();
  }
}
