// One JSON example of each of this module's instruction kinds.
// The form `torana tx submit` takes (docs/instructions.md). Found by its file name (src/modules/examples.ts):
// the CLI's schema tests check each one against the published schema and the codec, and write them into
// the generated section of this module's docs page, `page`.

import { ROSE } from '../../cli/example-world.js';
import type { Json } from '../../codec/codec.js';

export const page = 'docs/subscriptions.md';

export const examples: Readonly<Record<string, Json>> = {
  RegisterSubscriptionPlan: {
    kind: 'RegisterSubscriptionPlan',
    id: 'pro-monthly',
    billing: {
      cadence: { kind: 'FixedPeriod', period_ms: 2592000000 },
      bill_for: { kind: 'Current' },
      retry_backoff_ms: 3600000,
      max_failures: 3,
      grace_ms: 86400000,
    },
    pricing: { kind: 'Fixed', amount: '9.99', asset_definition: ROSE },
    trial_ms: 0,
  },
  Subscribe: { kind: 'Subscribe', id: 'alice-pro', plan: 'pro-monthly' },
  CancelSubscription: { kind: 'CancelSubscription', id: 'alice-pro', at_period_end: true },
  KeepSubscription: { kind: 'KeepSubscription', id: 'alice-pro' },
  PauseSubscription: { kind: 'PauseSubscription', id: 'alice-pro' },
  ResumeSubscription: { kind: 'ResumeSubscription', id: 'alice-pro' },
  ChargeSubscriptionNow: { kind: 'ChargeSubscriptionNow', id: 'alice-pro' },
  RecordSubscriptionUsage: {
    kind: 'RecordSubscriptionUsage',
    id: 'alice-pro',
    unit_key: 'api_calls',
    units: '120',
  },
  ChargeSubscription: { kind: 'ChargeSubscription', id: 'alice-pro' },
};
