// Abuse scenarios — the short subset that runs inside `npm test`, in four files that the runner starts in
// parallel processes (each about a quarter of the scenarios' time): streams here, the HTTP transport
// (abuse-http.test.ts), read cost (abuse-queries.test.ts), admission and the queue
// (abuse-admission.test.ts). The same scenarios run at full size in test/reliability/abuse.test.ts; each
// prints a `[figure]` line (connections refused, events delivered, bytes, memory, what was lost: must be
// nothing). Scenarios: test/abuse/*.ts.

import { describe, it } from 'node:test';
import { browserAttacks } from './browser.js';
import { slowCrowd } from './crowd.js';
import { streamsPerAddress } from './per-address.js';
import { resumeAcrossRestart } from './restart-resume.js';
import { fullBlockBurst, subscriptionFloods } from './streams.js';

// No time limit of its own: the runner's per-file timeout (scripts/test.mjs) stops a hung file; at a
// load average of 28 on 2 cores the suite took over 240 s and a limit of that size failed it.
describe('abuse (short): streams', () => {
  // First, in a fresh process, so that its memory figures are not blurred by earlier scenarios' garbage.
  it('never-reading SSE and WebSocket clients are cut off; readers get every event in order', () =>
    slowCrowd({ sse: 25, ws: 25, readers: 1, txMax: 1_000 }));
  it('SSE and WebSocket clients beyond the stream caps are refused', () =>
    subscriptionFloods({ sseMax: 10, wsMax: 10, extra: 5 }));
  it('streams per address: 4 addresses cannot take every SSE / WebSocket slot', () =>
    streamsPerAddress({ addresses: 4, attempts: 8, perIpMax: 3, serverMax: 20 }));
  it('DNS rebinding (wrong Host) 421 and cross-site WebSocket hijacking (wrong Origin) 403', () =>
    browserAttacks());
  it('regression: a burst of 1,200 transactions does not cut off SSE readers', () =>
    fullBlockBurst({ transactions: 1_200 }));
  it('SSE resumption across a restart: exactly the missed events, no gap, no repeat', () =>
    resumeAcrossRestart({ before: 5, after: 8 }));
});
