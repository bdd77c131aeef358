// The bridge theft through real sockets (a critical finding). Every variant is refused at the
// route (401 unsigned, 403 another bank's BIC, 403 a pin widening the participant's accounts, 401/403/409
// stale, forged, replayed), and with the route check removed the executor refuses it
// (debit_not_granted). The scenario lives in test/abuse/bridge-theft.ts so the abuse suites run it too.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bridgeTheft } from '../abuse/bridge-theft.js';

describe('ISO 20022 bridge: the victim-to-attacker theft', { timeout: 60_000 }, () => {
  it('is refused at the route, and by the executor when the route check is removed', async () => {
    const f = await bridgeTheft({ attempts: 1 });
    assert.equal(f.refusedAtRoute, 7);
    assert.equal(f.refusedByExecutor, 1);
    assert.equal(f.victimBalance, '500000e-2');
  });
});
