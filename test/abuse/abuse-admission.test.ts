// Abuse scenarios, short (test/abuse/abuse.test.ts says how the four files divide them): admission —
// queue flooding, unregistered keys, per-key and per-source caps, replayed signed queries, ISO 20022
// bridge theft. Full size in test/reliability/abuse.test.ts.

import { describe, it } from 'node:test';
import { submitterCaps, unregisteredKeys } from './admission.js';
import { bridgeTheft } from './bridge-theft.js';
import { signedQueryReplay } from './queries.js';
import { queueFlood } from './queue.js';

describe('abuse (short): admission', () => {
  it('queue flooding: 429 with Retry-After at capacity, then drains; nothing lost', () =>
    queueFlood({ capacity: 100, factor: 2, concurrency: 16 }));
  it('ISO 20022 bridge theft: refused at the route (401/403/409) and by the executor without it', () =>
    bridgeTheft({ attempts: 2 }).then(() => undefined));
  it('unregistered keys are refused at admission: no block grows', () =>
    unregisteredKeys({ transactions: 50, concurrency: 8 }));
  it('per-key and per-source queue caps: 429 with Retry-After, others served', () =>
    submitterCaps({ perKeyMax: 10, perSourceMax: 15 }));
  it('signed queries: stale and future refused, a replay answered once, even after eviction', () =>
    signedQueryReplay({ replays: 20, cacheMax: 20 }));
});
