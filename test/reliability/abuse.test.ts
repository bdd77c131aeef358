// Abuse (long version, `npm run test:reliability`): the scenarios of test/abuse/ at full size —
// oversized bodies (with and without Content-Length) and a gzip bomb, header floods, slowloris headers
// and slow bodies from hundreds of addresses, connection caps per IP and in total, SSE / WebSocket
// clients beyond their caps, 1,000 never-reading SSE + WebSocket clients while readers receive every
// event in order, queue flooding beyond capacity (429 with Retry-After, then drains), metrics label
// cardinality, filter and list cost over 42,000 accounts, and a query cursor flood; trigger
// abuse, p2p handshake floods, operator challenge floods, webhook target ranges and the development-key
// warning (test/abuse/limits.test.ts runs them small); signed app requests from unregistered or flooding
// signers and webhook owners that would fill the node (test/abuse/signed.ts). Each prints its `[figure]`
// line; `lost` must be 0.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { submitterCaps, unregisteredKeys } from '../abuse/admission.js';
import { gzipBomb, headerFloods, oversizedBodies } from '../abuse/bodies.js';
import { bridgeTheft } from '../abuse/bridge-theft.js';
import { browserAttacks } from '../abuse/browser.js';
import { metricsCardinality } from '../abuse/cardinality.js';
import { costAbuse } from '../abuse/cost.js';
import { slowCrowd } from '../abuse/crowd.js';
import { cursorFlood } from '../abuse/cursors.js';
import { devKeysAnnounced } from '../abuse/dev-keys.js';
import { operatorChallengeFlood } from '../abuse/operator-challenges.js';
import { operatorReplay } from '../abuse/operator-replay.js';
import { handshakeFlood } from '../abuse/p2p-handshakes.js';
import { streamsPerAddress } from '../abuse/per-address.js';
import { signedQueryReplay } from '../abuse/queries.js';
import { queryCostAttacks } from '../abuse/query-cost.js';
import { queueFlood } from '../abuse/queue.js';
import { resumeAcrossRestart } from '../abuse/restart-resume.js';
import { routerRejectionsRateLimited } from '../abuse/router-rate.js';
import { deadTargetOwner, futureStampedFlood, unregisteredSigners, webhookOwners } from '../abuse/signed.js';
import { connectionCaps, slowClients } from '../abuse/slow.js';
import { fullBlockBurst, subscriptionFloods } from '../abuse/streams.js';
import { triggerAbuse } from '../abuse/triggers.js';
import {
  freeSpends,
  poolPages,
  shieldDust,
  startValueNode,
  subscriptionTheft,
  usageSplit,
} from '../abuse/value.js';
import { webhookTargetRanges } from '../abuse/webhook-targets.js';
import { TIMING_BOUNDS_ENV } from '../helpers/timing-bound.js';

// The full-size scenarios assert their timing bounds (npm test only prints them).
process.env[TIMING_BOUNDS_ENV] = '1';

const BODY = { concurrent: 100, chunkedSendMax: 256 * 1024 * 1024, gzipInflatedBytes: 512 * 1024 * 1024 };

describe('abuse (long)', { timeout: 900_000 }, () => {
  // First, in a fresh process, so that its memory figures are not blurred by earlier scenarios' garbage.
  it('1,000 never-reading SSE + WebSocket clients are cut off; readers get every event in order', () =>
    slowCrowd({ sse: 500, ws: 500, readers: 4, txMax: 5_000 }));
  it('oversized bodies: 413 before the body is read, 100 at once, memory bounded', () =>
    oversizedBodies(BODY));
  it('a 512 MiB gzip bomb is refused without being inflated', () => gzipBomb(BODY));
  it('200 concurrent header floods: 431 while others are served', () => headerFloods({ floods: 200 }));
  it('200 slowloris + 200 slow-body clients are cut off by the timeouts; others are served', () =>
    slowClients({ slowloris: 200, slowBodies: 200, headerTimeoutMs: 1_000, requestTimeoutMs: 3_000 }));
  it('connections beyond 32 per IP and 300 in total are refused', () =>
    connectionCaps({ perIpMax: 32, totalMax: 300, extra: 20 }));
  it('SSE and WebSocket clients beyond the stream caps are refused', () =>
    subscriptionFloods({ sseMax: 300, wsMax: 100, extra: 50 }));
  it('streams per address: 4 addresses x 40 cannot take the 100 SSE / WebSocket slots', () =>
    streamsPerAddress({ addresses: 4, attempts: 40, perIpMax: 10, serverMax: 100 }));
  it('DNS rebinding (wrong Host) 421 and cross-site WebSocket hijacking (wrong Origin) 403', () =>
    browserAttacks());
  it('a signed operator request replayed at another node or after a restart is refused (401)', () =>
    operatorReplay({ replays: 50 }));
  it('requests refused by the router spend the rate limit budget (429 after the burst)', () =>
    routerRejectionsRateLimited({ burst: 200, requests: 1_000 }));
  it('regression: 5,000 transactions in full blocks do not cut off SSE readers', () =>
    fullBlockBurst({ transactions: 5_000 }));
  it('queue flooding 4x beyond a capacity of 5,000: 429 with Retry-After, then drains; nothing lost', () =>
    queueFlood({ capacity: 5_000, factor: 4, concurrency: 32 }));
  it('metrics label cardinality stays bounded over 20,000 hostile requests', () =>
    metricsCardinality({ requests: 20_000 }));
  it('ISO 20022 bridge theft, 20 rounds of 7 variants: refused at the route and by the executor', () =>
    bridgeTheft({ attempts: 20 }).then(() => undefined));
  it('filter and list cost at 42,000 accounts, 8 clients: huge filters refused, pages O(page), /health < 100 ms', () =>
    queryCostAttacks({ accounts: 42_000, clients: 8, rounds: 12 }));
  // The idle time outlasts the flood itself (1,000 requests take seconds on loaded cores), so the cursors
  // counted right after it are those the cap let open, not fewer because the first ones were swept.
  it('1,000 Start FindTransactions from one account on a 10,000-transaction chain: capped, memory bounded, swept', () =>
    cursorFlood({ transactions: 1_000, requests: 1_000, perAccountMax: 16, idleMs: 600_000 }));
  it('500 transactions of ~60 KB from fresh unregistered keys: all refused 400, no block grows', () =>
    unregisteredKeys({ transactions: 500, concurrency: 16 }));
  it('per-key (1,000) and per-source (1,500) queue caps: 429 with Retry-After, others served', () =>
    submitterCaps({ perKeyMax: 1_000, perSourceMax: 1_500 }));
  it('signed queries: stale and future refused, 1,000 concurrent replays answered once, 4,000 past the cache', () =>
    signedQueryReplay({ replays: 1_000, cacheMax: 2_000 }));
  it('SSE resumption across a restart after 100 / 200 commits: exactly the missed events', () =>
    resumeAcrossRestart({ before: 100, after: 200 }));
  it('value: 500 × ChargeSubscriptionNow refused; 1,000 dust shields refused, 1,500 at the minimum in bounded time; the pool paged; 1,000 × 1 ms usage bills the sum; no zero-fee spend', async () => {
    const v = await startValueNode();
    try {
      await subscriptionTheft(v, { charges: 500 });
      const f = await shieldDust(v, { dust: 1_000, notes: 1_500 });
      // Bounded: the path to the root (16 Poseidon hashes) per append, not the whole tree; a loaded
      // 2-core machine still stays far below this.
      assert.ok(f.perAppendMsWithCommit < 100, `${f.perAppendMsWithCommit} ms per append, commits included`);
      await poolPages(v, { limit: 500 });
      await usageSplit(v, { segments: 1_000 });
      await freeSpends(v);
    } finally {
      await v.t.stopAll();
    }
  });
  it('time triggers: EveryMs 1 refused, a 50 ms legacy repeat wakes an idle chain once per second over 10 s, 100 registrations capped', () =>
    triggerAbuse({ idleMs: 10_000, registrations: 100 }));
  it('p2p: 200 idle connections from one host, or 60 addresses x 10, cannot keep 4 configured peers out', () =>
    handshakeFlood({ oneHost: 200, addresses: 60, perAddress: 10, peers: 4 }));
  it('webhook targets: 314 addresses outside global unicast (IPv4 inside IPv6 too) all refused 422', () =>
    webhookTargetRanges({ wrappedPerRange: 20 }));
  it('sign-in challenges from 128 addresses x 12 (table 1,024, 8 per address): the operator still signs in', () =>
    operatorChallengeFlood({ addresses: 128, perAddress: 12, perAddressMax: 8 }));
  it('a `torana init` node on the development keys warns once and lists them and its features', () =>
    devKeysAnnounced());
  it('every signed family route refuses a key under 10 fake domains and an unregistered key (403)', () =>
    unregisteredSigners({ fakeDomains: 10 }));
  it('501 future-stamped requests from one account (quota 500): 429 beyond it, another account never nonce_reused', () =>
    futureStampedFlood({ flood: 501, honest: 200, quota: 500 }));
  it('one key under 50 fake domains registers no webhook; one key at its cap (20) does not block another owner', () =>
    webhookOwners({ fakeDomains: 50, perOwnerMax: 20 }));
  it("20 dead-target webhooks of one owner over 200 commits: another owner's receiver gets all 200, in order", () =>
    deadTargetOwner({ deadHooks: 20, commits: 200, queueTotalMax: 1_000, queuePerOwnerMax: 500 }));
  it('execution cost: 1,000 ShieldAsset refused, 30 at-cap transactions one per block, another account served, /health p99 ≤ 100 ms', () =>
    costAbuse({ atCap: 30, assertHealthP99Ms: 100 }));
});
