// The subscriptions module's wire declarations (docs/subscriptions.md; docs/design/modules.md "Wire
// declarations"): its instruction and event variants, rejection meanings, weights, stored row types and
// tables. Their tags, numbers and ids are in model/tags.ts; importing this file (src/modules/registry.ts
// does) declares them into the core's codecs and tables.

import { bool, u32, varuint } from '../../codec/primitives.js';
import { AccountId } from '../../model/ids.js';
import { Name } from '../../model/names.js';
import { NumericCodec } from '../../model/numeric.js';
import { row, sized } from '../../model/weights.js';
import { declareModuleWire } from '../../state/module-wire.js';
import { type TableDef, tableDef } from '../../state/tables.js';
import {
  BillingCodec,
  InvoiceCodec,
  PricingCodec,
  type Subscription,
  SubscriptionCodec,
  SubscriptionIdText,
  type SubscriptionPlan,
  SubscriptionPlanCodec,
  SubscriptionStatusCodec,
} from './model.js';

/** ChargeSubscription is what a subscription's billing schedule runs. */
const INSTRUCTIONS = {
  RegisterSubscriptionPlan: {
    id: SubscriptionIdText,
    billing: BillingCodec,
    pricing: PricingCodec,
    trialMs: varuint,
  },
  Subscribe: { id: SubscriptionIdText, plan: SubscriptionIdText },
  CancelSubscription: { id: SubscriptionIdText, atPeriodEnd: bool },
  KeepSubscription: { id: SubscriptionIdText },
  PauseSubscription: { id: SubscriptionIdText },
  ResumeSubscription: { id: SubscriptionIdText },
  ChargeSubscriptionNow: { id: SubscriptionIdText },
  RecordSubscriptionUsage: { id: SubscriptionIdText, unitKey: Name, units: NumericCodec },
  ChargeSubscription: { id: SubscriptionIdText },
};

const EVENTS = {
  SubscriptionPlanRegistered: { id: SubscriptionIdText, provider: AccountId },
  SubscriptionCreated: { id: SubscriptionIdText, plan: SubscriptionIdText, subscriber: AccountId },
  SubscriptionStatusChanged: { id: SubscriptionIdText, status: SubscriptionStatusCodec },
  SubscriptionInvoiced: { id: SubscriptionIdText, invoice: InvoiceCodec, failureCount: u32 },
  SubscriptionUsageRecorded: { id: SubscriptionIdText, units: NumericCodec, total: NumericCodec },
};

declare module '../../model/instructions.js' {
  interface InstructionVariants extends SubscriptionInstructionVariants {}
}
declare module '../../model/events.js' {
  interface DataEventVariants extends SubscriptionEventVariants {}
}
declare module '../../state/tables.js' {
  interface TableRows {
    subscriptionPlan: SubscriptionPlan;
    subscription: Subscription;
  }
  interface IndexNames {
    /** Plans by provider; subscriptions by subscriber and by provider. */
    plansByProvider: unknown;
    subscriptionsBySubscriber: unknown;
    subscriptionsByProvider: unknown;
  }
}
type SubscriptionInstructionVariants = typeof INSTRUCTIONS;
type SubscriptionEventVariants = typeof EVENTS;

export const SUBSCRIPTION_TABLES = [
  tableDef<SubscriptionPlan>('subscriptionPlan', SubscriptionPlanCodec, {
    idOf: (v) => v.id,
    links: (_id, v) => [['plansByProvider', v.provider]],
  }),
  tableDef<Subscription>('subscription', SubscriptionCodec, {
    idOf: (v) => v.id,
    links: (_id, v) => [
      ['subscriptionsBySubscriber', v.subscriber],
      ['subscriptionsByProvider', v.provider],
    ],
    linksById: true,
  }),
] as const;

export const subscriptionsWire = declareModuleWire({
  name: 'subscriptions',
  instructions: INSTRUCTIONS,
  events: EVENTS,
  // The meanings are consensus data (a rejection without its own message carries its meaning): never
  // change their text.
  rejections: {
    plan_invalid: 'the plan id, billing rule or pricing is out of range',
    plan_not_found: 'no such subscription plan',
    subscription_invalid: 'the subscription id is malformed, or the subscriber is the provider',
    subscription_not_found: 'no such subscription',
    subscription_invalid_state: 'the subscription status does not allow this',
    subscription_usage_not_allowed:
      'usage is recorded only by the provider, on a usage-priced plan, under its unit key',
    subscription_charge_not_allowed: 'only the subscription billing trigger runs ChargeSubscription',
    subscription_charge_not_due:
      'the billing point is not reached (or the trial is running): only the subscriber may pay one period early',
  },
  weights: {
    RegisterSubscriptionPlan: sized(40, 0.1),
    Subscribe: row(80),
    CancelSubscription: row(40),
    KeepSubscription: row(40),
    PauseSubscription: row(40),
    ResumeSubscription: row(40),
    ChargeSubscriptionNow: row(80),
    RecordSubscriptionUsage: row(40),
    ChargeSubscription: row(80),
  },
  schemaTypes: [SubscriptionPlanCodec, SubscriptionCodec],
  tables: SUBSCRIPTION_TABLES as unknown as readonly TableDef<never>[],
  docs: 'docs/subscriptions.md',
});
