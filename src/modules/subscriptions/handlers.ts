// Subscription instructions (docs/subscriptions.md "Instructions"). Check order for each: id literal →
// the plan / subscription exists → who may → state rules. The subscriber is the authority of Subscribe;
// its subscription is the standing grant under which the billing trigger (running as the subscriber)
// charges it, so no other permission is involved, and canceling, pausing or suspension withdraws it.

import { type ExecContext, type Fail, fail, type Handler } from '../../state/exec-context.js';
import { installedScheduledRuns } from '../../state/module-host.js';
import {
  addNumeric,
  chargeSubscription,
  close,
  saveSubscription,
  scheduleBilling,
  status,
  unscheduleBilling,
} from './billing.js';
import {
  billingTriggerId,
  nextBoundary,
  planProblem,
  type Subscription,
  type SubscriptionPlan,
  type SubscriptionStatus,
} from './model.js';

const idProblem = (id: string) => installedScheduledRuns().labelProblem(id);

export const registerSubscriptionPlan: Handler<'RegisterSubscriptionPlan'> = (x, ins) => {
  const bad = idProblem(ins.id) ?? planProblem(ins);
  if (bad !== undefined) return fail('plan_invalid', bad);
  const definition = ins.pricing.assetDefinition;
  if (!x.t.assetDefinition.has(definition))
    return fail('asset_definition_not_found', `no asset definition ${definition}`);
  if (x.t.subscriptionPlan.has(ins.id)) return fail('already_exists', `plan ${ins.id} exists`);
  x.t.subscriptionPlan.set(ins.id, { ...ins, provider: x.authority });
  x.emit({ kind: 'SubscriptionPlanRegistered', id: ins.id, provider: x.authority });
  return undefined;
};

export const subscribe: Handler<'Subscribe'> = (x, ins) => {
  const bad = idProblem(ins.id);
  if (bad !== undefined) return fail('subscription_invalid', bad);
  const plan = x.t.subscriptionPlan.get(ins.plan);
  if (plan === undefined) return fail('plan_not_found', `no plan ${ins.plan}`);
  if (plan.provider === x.authority) return fail('subscription_invalid', 'the provider cannot subscribe');
  if (x.t.subscription.has(ins.id)) return fail('already_exists', `subscription ${ins.id} exists`);
  const now = x.block.blockTimeMs;
  const start = now + plan.trialMs;
  const current = plan.billing.billFor.kind === 'Current';
  // Current: the trial (possibly empty) is in force and the first period is charged at its end.
  // Previous: the first period runs from the end of the trial and is charged when it ends.
  const end = current ? start : nextBoundary(plan.billing.cadence, start);
  const sub: Subscription = {
    id: ins.id,
    planId: plan.id,
    provider: plan.provider,
    subscriber: x.authority,
    status: status('Active'),
    createdAtMs: now,
    currentPeriodStartMs: current ? now : start,
    currentPeriodEndMs: end,
    dueAtMs: end,
    nextChargeMs: end,
    cancelAtPeriodEnd: false,
    failureCount: 0,
    usageAccumulated: { mantissa: 0n, scale: 0 },
    billingTriggerId: billingTriggerId(ins.id),
  };
  x.t.subscription.set(sub.id, sub);
  x.emit({ kind: 'SubscriptionCreated', id: sub.id, plan: plan.id, subscriber: x.authority });
  scheduleBilling(x, sub);
  return undefined;
};

type Who = 'subscriber' | 'provider' | 'either';

/** The subscription, if the authority may act on it and its status is one of `allowed`. */
function actOn(x: ExecContext, id: string, who: Who, allowed: SubscriptionStatus[]): Subscription | Fail {
  const sub = x.t.subscription.get(id);
  if (sub === undefined) return fail('subscription_not_found', `no subscription ${id}`);
  const ok =
    !x.checkPermissions ||
    (who !== 'provider' && x.authority === sub.subscriber) ||
    (who !== 'subscriber' && x.authority === sub.provider);
  if (!ok) return fail('permission_denied', `only the ${who === 'either' ? 'subscriber or provider' : who}`);
  if (!allowed.includes(sub.status.kind))
    return fail('subscription_invalid_state', `subscription ${id} is ${sub.status.kind}`);
  return sub;
}

function isFail(v: Subscription | Fail): v is Fail {
  return 'code' in v;
}

const LIVE: SubscriptionStatus[] = ['Active', 'PastDue', 'Paused'];

export const cancelSubscription: Handler<'CancelSubscription'> = (x, ins) => {
  const sub = actOn(x, ins.id, 'either', ins.atPeriodEnd ? LIVE : [...LIVE, 'Suspended']);
  if (isFail(sub)) return sub;
  if (ins.atPeriodEnd) saveSubscription(x, sub, { ...sub, cancelAtPeriodEnd: true });
  else close(x, sub);
  return undefined;
};

export const keepSubscription: Handler<'KeepSubscription'> = (x, ins) => {
  const sub = actOn(x, ins.id, 'either', LIVE);
  if (isFail(sub)) return sub;
  if (!sub.cancelAtPeriodEnd) return fail('subscription_invalid_state', `${ins.id} is not canceling`);
  saveSubscription(x, sub, { ...sub, cancelAtPeriodEnd: false });
  return undefined;
};

export const pauseSubscription: Handler<'PauseSubscription'> = (x, ins) => {
  const sub = actOn(x, ins.id, 'subscriber', ['Active', 'PastDue']);
  if (isFail(sub)) return sub;
  unscheduleBilling(x, sub);
  saveSubscription(x, sub, { ...sub, status: status('Paused') });
  return undefined;
};

/**
 * Billing restarts at the resume: periods that passed while paused are not charged, and a billing point
 * already passed moves to the resuming block (for bill_for current, charged in that block).
 */
export const resumeSubscription: Handler<'ResumeSubscription'> = (x, ins) => {
  const sub = actOn(x, ins.id, 'subscriber', ['Paused']);
  if (isFail(sub)) return sub;
  const dueAtMs = Math.max(sub.dueAtMs, x.block.blockTimeMs);
  const row: Subscription = {
    ...sub,
    status: status(sub.failureCount > 0 ? 'PastDue' : 'Active'),
    dueAtMs,
    nextChargeMs: Math.max(sub.nextChargeMs, x.block.blockTimeMs),
  };
  saveSubscription(x, sub, row);
  scheduleBilling(x, row);
  return undefined;
};

function planOf(x: ExecContext, sub: Subscription) {
  const plan = x.t.subscriptionPlan.get(sub.planId);
  return plan ?? fail('plan_not_found', `no plan ${sub.planId}`);
}

/**
 * Whether `sub` may be charged now (block time), by the authority: at or past its billing point by
 * either party (one period per billing point: each charge moves the point one period on); before it
 * only by the subscriber paying one period early, never inside the trial, never twice ahead (the
 * period in force must have started) and not when canceling at period end.
 */
function notDue(x: ExecContext, sub: Subscription, plan: SubscriptionPlan): Fail | undefined {
  const now = x.block.blockTimeMs;
  if (now >= sub.dueAtMs) return undefined;
  const at = `billing point ${sub.dueAtMs}, block time ${now}`;
  if (x.checkPermissions && x.authority !== sub.subscriber)
    return fail(
      'subscription_charge_not_due',
      `${sub.id} is not due (${at}): only the subscriber pays early`,
    );
  if (now < sub.createdAtMs + plan.trialMs)
    return fail(
      'subscription_charge_not_due',
      `${sub.id} is in its trial until ${sub.createdAtMs + plan.trialMs}`,
    );
  if (now < sub.currentPeriodStartMs)
    return fail('subscription_charge_not_due', `${sub.id} is paid one period ahead already (${at})`);
  if (sub.cancelAtPeriodEnd)
    return fail('subscription_charge_not_due', `${sub.id} ends at its period end: nothing to pay early`);
  return undefined;
}

export const chargeSubscriptionNow: Handler<'ChargeSubscriptionNow'> = (x, ins) => {
  const sub = actOn(x, ins.id, 'either', ['Active', 'PastDue']);
  if (isFail(sub)) return sub;
  const plan = planOf(x, sub);
  if ('code' in plan) return plan;
  const early = notDue(x, sub, plan);
  if (early) return early;
  chargeSubscription(x, sub, plan);
  return undefined;
};

/** What the billing trigger runs; refused anywhere else (a subscriber cannot pull its own charges early). */
export const chargeSubscriptionHandler: Handler<'ChargeSubscription'> = (x, ins) => {
  const sub = x.t.subscription.get(ins.id);
  if (sub === undefined) return fail('subscription_not_found', `no subscription ${ins.id}`);
  if (x.dueItem !== sub.billingTriggerId)
    return fail('subscription_charge_not_allowed', `only ${sub.billingTriggerId} charges ${ins.id}`);
  if (sub.status.kind !== 'Active' && sub.status.kind !== 'PastDue')
    return fail('subscription_invalid_state', `subscription ${ins.id} is ${sub.status.kind}`);
  if (x.block.blockTimeMs < sub.dueAtMs)
    return fail('subscription_charge_not_due', `${ins.id} is due at ${sub.dueAtMs}`);
  const plan = planOf(x, sub);
  if ('code' in plan) return plan;
  chargeSubscription(x, sub, plan);
  return undefined;
};

export const recordSubscriptionUsage: Handler<'RecordSubscriptionUsage'> = (x, ins) => {
  const sub = actOn(x, ins.id, 'provider', ['Active', 'PastDue', 'Paused']);
  if (isFail(sub)) return sub;
  const plan = planOf(x, sub);
  if ('code' in plan) return plan;
  if (plan.pricing.kind !== 'Usage' || plan.pricing.unitKey !== ins.unitKey)
    return fail('subscription_usage_not_allowed', `plan ${plan.id} does not bill ${ins.unitKey}`);
  if (ins.units.mantissa === 0n) return fail('invalid_amount', 'units must be greater than zero');
  const total = addNumeric(sub.usageAccumulated, ins.units);
  if (total === undefined) return fail('overflow', 'accumulated usage exceeds the mantissa');
  saveSubscription(x, sub, { ...sub, usageAccumulated: total });
  x.emit({ kind: 'SubscriptionUsageRecorded', id: sub.id, units: ins.units, total });
  return undefined;
};
