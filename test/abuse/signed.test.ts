// Signed app requests and webhook owners under abuse (docs/security.md "Signed app requests"), small
// sizes for `npm test`; test/reliability/abuse.test.ts runs the same scenarios (test/abuse/signed.ts) at
// the sizes of the finding. Each prints a `[figure]` line.

import { describe, it } from 'node:test';
import { deadTargetOwner, futureStampedFlood, unregisteredSigners, webhookOwners } from './signed.js';

describe('signed app requests and webhook owners (abuse, short)', { timeout: 240_000 }, () => {
  it('every signed family route refuses an unregistered key or a domain that does not exist (403)', () =>
    unregisteredSigners({ fakeDomains: 2 }));
  it("one account's future-stamped flood: 429 beyond its quota, another account never nonce_reused", () =>
    futureStampedFlood({ flood: 60, honest: 10, quota: 40 }));
  it('one key under fake domains registers no webhook; one key at its cap does not block another owner', () =>
    webhookOwners({ fakeDomains: 5, perOwnerMax: 3 }));
  it("one owner's dead-target webhooks do not drop or delay out another owner's deliveries", () =>
    deadTargetOwner({ deadHooks: 4, commits: 12, queueTotalMax: 24, queuePerOwnerMax: 12 }));
});
