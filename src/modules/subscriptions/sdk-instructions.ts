// Builders of the subscription instructions (docs/subscriptions.md), spread
// into the SDK's `instructions` (through src/modules/registry.ts). Times are block times in milliseconds since the epoch; amounts
// decimal strings. The ledger checks ids, ranges and permissions; the SDK does not repeat its rules.

import type { Instruction } from '../../model/instructions.js';
import { numeric } from '../../model/numeric.js';

type RegisterPlan = Extract<Instruction, { kind: 'RegisterSubscriptionPlan' }>;

export interface PlanInput {
  cadence: { monthlyCalendar: { anchorDay: number; anchorTimeMs?: number } } | { fixedPeriodMs: number };
  /** Default `current`: charged at the start of each period; `previous`: at its end (usage). */
  billFor?: 'current' | 'previous';
  retryBackoffMs: number;
  maxFailures: number;
  graceMs?: number;
  pricing:
    | { fixed: { amount: string; assetDefinition: string } }
    | { usage: { unitPrice: string; unitKey: string; assetDefinition: string } };
  trialMs?: number;
}

function billing(p: PlanInput): RegisterPlan['billing'] {
  const c = p.cadence;
  return {
    cadence:
      'monthlyCalendar' in c
        ? {
            kind: 'MonthlyCalendar',
            anchorDay: c.monthlyCalendar.anchorDay,
            anchorTimeMs: c.monthlyCalendar.anchorTimeMs ?? 0,
          }
        : { kind: 'FixedPeriod', periodMs: c.fixedPeriodMs },
    billFor: { kind: p.billFor === 'previous' ? 'Previous' : 'Current' },
    retryBackoffMs: p.retryBackoffMs,
    maxFailures: p.maxFailures,
    graceMs: p.graceMs ?? 0,
  };
}

function pricing(p: PlanInput['pricing']): RegisterPlan['pricing'] {
  if ('fixed' in p)
    return { kind: 'Fixed', amount: numeric(p.fixed.amount), assetDefinition: p.fixed.assetDefinition };
  const u = p.usage;
  return {
    kind: 'Usage',
    unitPrice: numeric(u.unitPrice),
    unitKey: u.unitKey,
    assetDefinition: u.assetDefinition,
  };
}

export const subscriptionInstructions = {
  /** The signer becomes the plan's provider. */
  registerSubscriptionPlan: (id: string, plan: PlanInput): Instruction => ({
    kind: 'RegisterSubscriptionPlan',
    id,
    billing: billing(plan),
    pricing: pricing(plan.pricing),
    trialMs: plan.trialMs ?? 0,
  }),
  /** The signer subscribes, granting the plan's charges on its balance while the subscription lives. */
  subscribe: (id: string, plan: string): Instruction => ({ kind: 'Subscribe', id, plan }),
  cancelSubscription: (id: string, atPeriodEnd = false): Instruction => ({
    kind: 'CancelSubscription',
    id,
    atPeriodEnd,
  }),
  keepSubscription: (id: string): Instruction => ({ kind: 'KeepSubscription', id }),
  pauseSubscription: (id: string): Instruction => ({ kind: 'PauseSubscription', id }),
  resumeSubscription: (id: string): Instruction => ({ kind: 'ResumeSubscription', id }),
  chargeSubscriptionNow: (id: string): Instruction => ({ kind: 'ChargeSubscriptionNow', id }),
  /** Provider only, on a usage-priced plan. */
  recordSubscriptionUsage: (id: string, unitKey: string, units: string): Instruction => ({
    kind: 'RecordSubscriptionUsage',
    id,
    unitKey,
    units: numeric(units),
  }),
} as const;
