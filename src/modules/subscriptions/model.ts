// Subscription plans and subscriptions (docs/subscriptions.md). A plan is a
// provider's price and billing rule; a subscription is a subscriber's agreement to a plan, charged by a
// ledger-made time trigger (`$sub:<id>`, docs/triggers.md) that runs as the subscriber: subscribing is
// the grant that lets the plan's charges move the subscriber's value to the provider, and canceling,
// pausing or suspension withdraws it. Times are block times in milliseconds (UTC), never the wall clock.

import type { Infer } from '../../codec/codec.js';
import { enumOf, option, struct } from '../../codec/compound.js';
import { bool, string, u8, u32, varuint } from '../../codec/primitives.js';
import { AccountId, AssetDefinitionId } from '../../model/ids.js';
import { Name } from '../../model/names.js';
import { NumericCodec } from '../../model/numeric.js';
import { RejectionCodeCodec } from '../../model/rejections.js';

export const SubscriptionIdText = string(64);

export const CadenceCodec = enumOf('BillingCadence', {
  /** Periods run from one anchor to the next: day anchorDay (1..31, clamped to the month's length) of
   * each month, anchorTimeMs (0..86,399,999) into that day, UTC. */
  MonthlyCalendar: { anchorDay: u8, anchorTimeMs: varuint },
  FixedPeriod: { periodMs: varuint },
});
export type Cadence = Infer<typeof CadenceCodec>;

/** Current: a period is charged at its start (in advance); Previous: at its end (in arrears, usage). */
export const BillForCodec = enumOf('BillFor', { Current: {}, Previous: {} });

export const BillingCodec = struct('Billing', {
  cadence: CadenceCodec,
  billFor: BillForCodec,
  /** After a failed charge, the next attempt comes this long after it. */
  retryBackoffMs: varuint,
  /** Failed attempts before the subscription may be suspended (1..100). */
  maxFailures: u32,
  /** A past-due subscription is suspended only this long after its due time has passed. */
  graceMs: varuint,
});
export type Billing = Infer<typeof BillingCodec>;

export const PricingCodec = enumOf('Pricing', {
  Fixed: { amount: NumericCodec, assetDefinition: AssetDefinitionId },
  /** unitPrice × units recorded with RecordSubscriptionUsage under unitKey, billed per period. */
  Usage: { unitPrice: NumericCodec, unitKey: Name, assetDefinition: AssetDefinitionId },
});
export type Pricing = Infer<typeof PricingCodec>;

/** A plan (table 0x1b, keyed by its id); plans never change, so a subscription's terms cannot either. */
export const SubscriptionPlanCodec = struct('SubscriptionPlan', {
  id: SubscriptionIdText,
  provider: AccountId,
  billing: BillingCodec,
  pricing: PricingCodec,
  trialMs: varuint,
});
export type SubscriptionPlan = Infer<typeof SubscriptionPlanCodec>;

export const SubscriptionStatusCodec = enumOf('SubscriptionStatus', {
  Active: {},
  Paused: {},
  PastDue: {},
  Canceled: {},
  Suspended: {},
});
export type SubscriptionStatus = Infer<typeof SubscriptionStatusCodec>['kind'];

export const InvoiceStatusCodec = enumOf('InvoiceStatus', {
  Paid: {},
  Failed: { reason: RejectionCodeCodec, message: string(1024) },
});

/** The latest charge attempt of a subscription. */
export const InvoiceCodec = struct('SubscriptionInvoice', {
  /** 1, 2, …: one number per attempt. */
  number: varuint,
  periodStartMs: varuint,
  periodEndMs: varuint,
  attemptedAtMs: varuint,
  height: varuint,
  amount: NumericCodec,
  assetDefinition: AssetDefinitionId,
  status: InvoiceStatusCodec,
});
export type Invoice = Infer<typeof InvoiceCodec>;

/** A subscription (table 0x1c, keyed by its id). */
export const SubscriptionCodec = struct('Subscription', {
  id: SubscriptionIdText,
  planId: SubscriptionIdText,
  provider: AccountId,
  subscriber: AccountId,
  status: SubscriptionStatusCodec,
  createdAtMs: varuint,
  /** The period in force (for a new subscription: its trial, possibly empty). */
  currentPeriodStartMs: varuint,
  currentPeriodEndMs: varuint,
  /** The billing point the next charge is for (a period start for Current, an end for Previous). */
  dueAtMs: varuint,
  /** When the billing trigger runs next (dueAtMs, or a retry after a failure). */
  nextChargeMs: varuint,
  cancelAtPeriodEnd: bool,
  failureCount: u32,
  usageAccumulated: NumericCodec,
  billingTriggerId: string(72),
  latestInvoice: option(InvoiceCodec),
});
export type Subscription = Infer<typeof SubscriptionCodec>;

/** The ledger-made billing trigger of a subscription. */
export function billingTriggerId(subscription: string): string {
  return `$sub:${subscription}`;
}

const DAY_MS = 86_400_000;

function monthAnchor(year: number, month: number, c: { anchorDay: number; anchorTimeMs: number }): number {
  const days = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Date.UTC(year, month, Math.min(c.anchorDay, days)) + c.anchorTimeMs;
}

/** The first period boundary strictly after `t` (pure arithmetic on UTC dates: deterministic). */
export function nextBoundary(cadence: Cadence, t: number): number {
  if (cadence.kind === 'FixedPeriod') return t + cadence.periodMs;
  const d = new Date(t);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  const here = monthAnchor(y, m, cadence);
  return here > t ? here : monthAnchor(y, m + 1, cadence);
}

/** Why a billing rule or pricing is refused; undefined when acceptable. */
export function planProblem(p: Omit<SubscriptionPlan, 'id' | 'provider'>): string | undefined {
  const c = p.billing.cadence;
  if (c.kind === 'MonthlyCalendar') {
    if (c.anchorDay < 1 || c.anchorDay > 31) return 'anchor_day must be 1..31';
    if (c.anchorTimeMs >= DAY_MS) return 'anchor_time_ms must be below 86,400,000';
  } else if (c.periodMs < 1000) return 'period_ms must be at least 1000';
  if (p.billing.maxFailures < 1 || p.billing.maxFailures > 100) return 'max_failures must be 1..100';
  if (p.billing.retryBackoffMs < 1) return 'retry_backoff_ms must be at least 1';
  const price = p.pricing.kind === 'Fixed' ? p.pricing.amount : p.pricing.unitPrice;
  if (price.mantissa === 0n) return 'the price must be greater than zero';
  return undefined;
}
