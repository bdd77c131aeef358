// Abuse scenarios, short (test/abuse/abuse.test.ts says how the four files divide them): read cost —
// huge filters and list pages at 1,000 accounts, query cursors flooded by one account. Full size in
// test/reliability/abuse.test.ts (query cost: query-cost.ts, cursors.ts).

import { describe, it } from 'node:test';
import { cursorFlood } from './cursors.js';
import { queryCostAttacks } from './query-cost.js';

describe('abuse (short): read cost', () => {
  it('filter and list cost at 1,000 accounts: huge filters refused, pages O(page), /health answered', () =>
    queryCostAttacks({ accounts: 1_000, clients: 4, rounds: 3 }));
  it('query cursors: capped per account, positions not copies, swept by the timer', () =>
    cursorFlood({ transactions: 50, requests: 64, perAccountMax: 16, idleMs: 600_000 }));
});
