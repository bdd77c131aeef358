// The subscriptions module (docs/subscriptions.md): plans and subscriptions, billed by the ledger itself.
// It builds on the module of scheduled runs: each subscription's billing point is a ledger-made run
// scheduled through the core's neutral ScheduledRuns port (state/module-host.ts), so it depends on the
// module that gives that port and is listed after it.

import type { DataEvent } from '../../model/events.js';
import type { RejectionCode } from '../../model/rejections.js';
import type { LedgerModule } from '../descriptor.js';
import { BILLING_RUNS } from './billing.js';
import { registerSubscriptionCommands } from './commands.js';
import { SUBSCRIPTION_DOC_SECTIONS } from './docs.js';
import { subscriptionsFamily } from './family.js';
import * as handlers from './handlers.js';
import { subscriptionsPort } from './reads.js';
import { SUBSCRIPTION_SDK } from './sdk.js';
import { subscriptionsWire } from './wire.js';

export const subscriptionsModule: LedgerModule = {
  name: 'subscriptions',
  instructions: {
    RegisterSubscriptionPlan: handlers.registerSubscriptionPlan,
    Subscribe: handlers.subscribe,
    CancelSubscription: handlers.cancelSubscription,
    KeepSubscription: handlers.keepSubscription,
    PauseSubscription: handlers.pauseSubscription,
    ResumeSubscription: handlers.resumeSubscription,
    ChargeSubscriptionNow: handlers.chargeSubscriptionNow,
    RecordSubscriptionUsage: handlers.recordSubscriptionUsage,
    ChargeSubscription: handlers.chargeSubscriptionHandler,
  },
  tables: (subscriptionsWire.tables ?? []).map((t) => t.name),
  schemaTypes: subscriptionsWire.schemaTypes ?? [],
  events: Object.keys(subscriptionsWire.events ?? {}) as DataEvent['kind'][],
  rejections: Object.keys(subscriptionsWire.rejections ?? {}) as RejectionCode[],
  scheduledRunMaker: BILLING_RUNS,
  routes: (env) => subscriptionsFamily(subscriptionsPort(env.state), env.deps),
  sdk: SUBSCRIPTION_SDK,
  cli: registerSubscriptionCommands,
  docs: 'docs/subscriptions.md',
  docSections: SUBSCRIPTION_DOC_SECTIONS,
  dependsOn: ['triggers'],
};
