// Abuse scenarios, short (test/abuse/abuse.test.ts says how the four files divide them): hostile HTTP
// clients against the transport — bodies, headers, slow clients, connection caps, the router's
// refusals, metrics labels, a replayed operator request. Full size in test/reliability/abuse.test.ts.

import { describe, it } from 'node:test';
import { gzipBomb, headerFloods, oversizedBodies } from './bodies.js';
import { metricsCardinality } from './cardinality.js';
import { operatorReplay } from './operator-replay.js';
import { routerRejectionsRateLimited } from './router-rate.js';
import { connectionCaps, slowClients } from './slow.js';

const BODY = { concurrent: 10, chunkedSendMax: 32 * 1024 * 1024, gzipInflatedBytes: 64 * 1024 * 1024 };

describe('abuse (short): HTTP', () => {
  it('oversized bodies: 413 before the body is read, with and without Content-Length', () =>
    oversizedBodies(BODY));
  it('a gzip bomb is refused without being inflated', () => gzipBomb(BODY));
  it('header floods: 431 while others are served', () => headerFloods({ floods: 10 }));
  it('slowloris headers and slow bodies are cut off by the timeouts; others are served', () =>
    slowClients({ slowloris: 10, slowBodies: 10, headerTimeoutMs: 400, requestTimeoutMs: 1_000 }));
  it('connections beyond the per-IP and total caps are refused', () =>
    connectionCaps({ perIpMax: 4, totalMax: 20, extra: 3 }));
  it('a signed operator request replayed at another node or after a restart is refused (401)', () =>
    operatorReplay({ replays: 3 }));
  it('requests refused by the router spend the rate limit budget (429 after the burst)', () =>
    routerRejectionsRateLimited({ burst: 10, requests: 40 }));
  it('metrics label cardinality stays bounded', () => metricsCardinality({ requests: 400 }));
});
