// Abuse scenarios — the short subset that runs inside `npm test` (about 40 s on 2 cores). The same scenarios
// run at full size in test/reliability/abuse.test.ts; each prints a `[figure]` line (connections refused,
// events delivered, bytes, memory, what was lost: must be nothing). Scenarios: test/abuse/*.ts (query
// cost: query-cost.ts, cursors.ts).

import { describe, it } from 'node:test';
import { submitterCaps, unregisteredKeys } from './admission.js';
import { gzipBomb, headerFloods, oversizedBodies } from './bodies.js';
import { bridgeTheft } from './bridge-theft.js';
import { browserAttacks } from './browser.js';
import { metricsCardinality } from './cardinality.js';
import { slowCrowd } from './crowd.js';
import { cursorFlood } from './cursors.js';
import { operatorReplay } from './operator-replay.js';
import { streamsPerAddress } from './per-address.js';
import { signedQueryReplay } from './queries.js';
import { queryCostAttacks } from './query-cost.js';
import { queueFlood } from './queue.js';
import { resumeAcrossRestart } from './restart-resume.js';
import { routerRejectionsRateLimited } from './router-rate.js';
import { connectionCaps, slowClients } from './slow.js';
import { fullBlockBurst, subscriptionFloods } from './streams.js';

const BODY = { concurrent: 10, chunkedSendMax: 32 * 1024 * 1024, gzipInflatedBytes: 64 * 1024 * 1024 };

// No time limit of its own: the runner's per-file timeout (scripts/test.mjs) stops a hung file; at a
// load average of 28 on 2 cores the suite took over 240 s and a limit of that size failed it.
describe('abuse (short)', () => {
  // First, in a fresh process, so that its memory figures are not blurred by earlier scenarios' garbage.
  it('never-reading SSE and WebSocket clients are cut off; readers get every event in order', () =>
    slowCrowd({ sse: 25, ws: 25, readers: 1, txMax: 1_000 }));
  it('oversized bodies: 413 before the body is read, with and without Content-Length', () =>
    oversizedBodies(BODY));
  it('a gzip bomb is refused without being inflated', () => gzipBomb(BODY));
  it('header floods: 431 while others are served', () => headerFloods({ floods: 10 }));
  it('slowloris headers and slow bodies are cut off by the timeouts; others are served', () =>
    slowClients({ slowloris: 10, slowBodies: 10, headerTimeoutMs: 400, requestTimeoutMs: 1_000 }));
  it('connections beyond the per-IP and total caps are refused', () =>
    connectionCaps({ perIpMax: 4, totalMax: 20, extra: 3 }));
  it('SSE and WebSocket clients beyond the stream caps are refused', () =>
    subscriptionFloods({ sseMax: 10, wsMax: 10, extra: 5 }));
  it('streams per address: 4 addresses cannot take every SSE / WebSocket slot', () =>
    streamsPerAddress({ addresses: 4, attempts: 8, perIpMax: 3, serverMax: 20 }));
  it('DNS rebinding (wrong Host) 421 and cross-site WebSocket hijacking (wrong Origin) 403', () =>
    browserAttacks());
  it('a signed operator request replayed at another node or after a restart is refused (401)', () =>
    operatorReplay({ replays: 3 }));
  it('requests refused by the router spend the rate limit budget (429 after the burst)', () =>
    routerRejectionsRateLimited({ burst: 10, requests: 40 }));
  it('regression: a burst of 1,200 transactions does not cut off SSE readers', () =>
    fullBlockBurst({ transactions: 1_200 }));
  it('queue flooding: 429 with Retry-After at capacity, then drains; nothing lost', () =>
    queueFlood({ capacity: 100, factor: 3, concurrency: 16 }));
  it('metrics label cardinality stays bounded', () => metricsCardinality({ requests: 1_000 }));
  it('ISO 20022 bridge theft: refused at the route (401/403/409) and by the executor without it', () =>
    bridgeTheft({ attempts: 2 }).then(() => undefined));
  it('filter and list cost at 2,000 accounts: huge filters refused, pages O(page), /health answered', () =>
    queryCostAttacks({ accounts: 2_000, clients: 4, rounds: 6 }));
  it('query cursors: capped per account, positions not copies, swept by the timer', () =>
    cursorFlood({ transactions: 50, requests: 64, perAccountMax: 16, idleMs: 600_000 }));
  it('unregistered keys are refused at admission: no block grows', () =>
    unregisteredKeys({ transactions: 50, concurrency: 8 }));
  it('per-key and per-source queue caps: 429 with Retry-After, others served', () =>
    submitterCaps({ perKeyMax: 10, perSourceMax: 15 }));
  it('signed queries: stale and future refused, a replay answered once, even after eviction', () =>
    signedQueryReplay({ replays: 20, cacheMax: 20 }));
  it('SSE resumption across a restart: exactly the missed events, no gap, no repeat', () =>
    resumeAcrossRestart({ before: 5, after: 8 }));
});
