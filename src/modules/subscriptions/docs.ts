// The subscriptions module's entries in the shared documentation pages (src/modules/docs.ts renders them
// into docs/app-api.md and docs/security.md).

import type { ModuleDocSections } from '../descriptor.js';

export const SUBSCRIPTION_DOC_SECTIONS: ModuleDocSections = {
  'app-api-families': [
    '| `subscriptions` | `/v1/subscriptions/*` (docs/subscriptions.md) | — |',
    "| `subscriptions` (it hosts the triggers module's family) | `/v1/triggers/*` (docs/triggers.md) | — |",
  ],
  'app-api-id-names': [
    '| `/v1/subscriptions`, `/v1/subscriptions/plans` | `owned_by`, `provider` (account) |',
  ],
  'security-writes': [
    "**Charges on someone's behalf wait until they are due.** A subscription is charged only once its\n" +
      'billing point (`due_at_ms`) is reached by block time, one period per billing point, never inside a\n' +
      'trial; the provider asking early is refused (`subscription_charge_not_due`) and only the subscriber may\n' +
      'pay one period early (docs/subscriptions.md "Billing rules"). Before, one transaction of 50\n' +
      '`ChargeSubscriptionNow` by a provider during a 1-day trial took 50 periods (500.00) and moved the\n' +
      'billing point four years ahead. Test: `test/abuse/value.ts` (`subscriptionTheft`).',
  ],
};
