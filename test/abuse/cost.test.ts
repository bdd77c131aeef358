// The execution cost abuse scenario, small (test/abuse/cost.ts): over-cap transactions refused with
// transaction_weight_exceeded, at-cap ones committed one per block, another account still served.
// /health p99 is only printed here; test/reliability/abuse.test.ts asserts it at full size.

import { describe, it } from 'node:test';
import { costAbuse } from './cost.js';

describe('execution cost abuse (short)', { timeout: 120_000 }, () => {
  it('over-cap refused at admission, at-cap committed one per block, another account served', () =>
    costAbuse({ atCap: 5 }));
});
