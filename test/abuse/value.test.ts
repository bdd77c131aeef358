// Value taken before it is due, and the shielded pool stalled or filled (test/abuse/value.ts), small:
// one served node for the file. The same scenarios run at full size in test/reliability/abuse.test.ts.

import { after, before, describe, it } from 'node:test';
import {
  freeSpends,
  poolPages,
  shieldDust,
  startValueNode,
  subscriptionTheft,
  usageSplit,
  type ValueNode,
} from './value.js';

describe('abuse: value not due, shielded pool dust and paging (short)', { timeout: 240_000 }, () => {
  let v: ValueNode;
  before(async () => {
    // A default page of 20 leaves: 30 notes are more than one page, as 1,500 are at the default 100
    // (test/reliability/abuse.test.ts), and each note is a pool append that commits through a block.
    v = await startValueNode({ 'gateway.list_limit_default': 20 });
  });
  after(async () => {
    await v.t.stopAll();
  });

  it('50 × ChargeSubscriptionNow by the provider during a trial: refused, nothing taken', () =>
    subscriptionTheft(v, { charges: 50 }));
  it('1,000 dust shields in one transaction are refused; shields at the minimum commit', () =>
    shieldDust(v, { dust: 1_000, notes: 30 }).then(() => undefined));
  it('GET /v1/conference/pool answers a page, and the SDK reads every page', () =>
    poolPages(v, { limit: 7 }));
  it('120 × 1 ms of conference usage bill what 120 ms does; a 1-year segment is refused', () =>
    usageSplit(v, { segments: 120 }));
  it('with the entry fee at 0 a proved note spend is refused and adds no leaf', () => freeSpends(v));
});
