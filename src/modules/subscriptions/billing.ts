// Charging a subscription (docs/subscriptions.md "Billing"): the amount of the due period moves from the
// subscriber to the provider through exec-assets.ts `transferValue`, the function TransferAsset uses. A
// charge that cannot move value does not fail the instruction: it records a failed invoice with its
// reason, counts the failure and retries after the plan's backoff; after max_failures, once the grace
// after the due time has passed, the subscription is suspended. Time is the block's.

import { assetId } from '../../model/ids.js';
import { MANTISSA_MAX, type Numeric } from '../../model/numeric.js';
import { transferValue } from '../../state/exec-assets.js';
import type { ExecContext, Fail } from '../../state/exec-context.js';
import { installedScheduledRuns, type ScheduledRunMaker } from '../../state/module-host.js';
import {
  type Invoice,
  nextBoundary,
  type Subscription,
  type SubscriptionPlan,
  type SubscriptionStatus,
} from './model.js';

/** Registers (or moves) the subscription's billing trigger to its nextChargeMs. */
export function scheduleBilling(x: ExecContext, sub: Subscription): void {
  installedScheduledRuns().schedule(x, {
    id: sub.billingTriggerId,
    authority: sub.subscriber,
    timeMs: sub.nextChargeMs,
    instructions: [{ kind: 'ChargeSubscription', id: sub.id }],
  });
}

export function unscheduleBilling(x: ExecContext, sub: Subscription): void {
  installedScheduledRuns().cancel(x, sub.billingTriggerId);
}

/**
 * The billing runs as the store of scheduled runs (the triggers module) hears of them: UnregisterTrigger
 * on any `$` id is refused `trigger_reserved` with this message. It is in the committed result
 * (consensus data): never reword it.
 */
export const BILLING_RUNS: ScheduledRunMaker = {
  removalRefused: (id) => `${id} belongs to a subscription: cancel or pause it instead`,
};

/** Stores the row, emitting a status change when the status moved. */
export function saveSubscription(x: ExecContext, before: Subscription | undefined, sub: Subscription): void {
  x.t.subscription.set(sub.id, sub);
  if (before?.status.kind !== sub.status.kind)
    x.emit({ kind: 'SubscriptionStatusChanged', id: sub.id, status: sub.status });
}

export const status = (kind: SubscriptionStatus): Subscription['status'] => ({ kind });

/** a + b at the larger scale. */
export function addNumeric(a: Numeric, b: Numeric): Numeric | undefined {
  const scale = Math.max(a.scale, b.scale);
  const m = a.mantissa * 10n ** BigInt(scale - a.scale) + b.mantissa * 10n ** BigInt(scale - b.scale);
  return m > MANTISSA_MAX ? undefined : { mantissa: m, scale };
}

/** price × units at `scale`, rounded down (a usage charge never exceeds the exact product). */
function product(price: Numeric, units: Numeric, scale: number): bigint {
  const m = price.mantissa * units.mantissa;
  const s = price.scale + units.scale;
  return s >= scale ? m / 10n ** BigInt(s - scale) : m * 10n ** BigInt(scale - s);
}

function amountDue(x: ExecContext, sub: Subscription, plan: SubscriptionPlan): Numeric | Fail {
  const p = plan.pricing;
  if (p.kind === 'Fixed') return p.amount;
  const definition = x.t.assetDefinition.get(p.assetDefinition);
  if (definition === undefined) return { code: 'asset_definition_not_found', message: p.assetDefinition };
  const m = product(p.unitPrice, sub.usageAccumulated, definition.scale);
  if (m > MANTISSA_MAX) return { code: 'overflow', message: 'the usage charge exceeds the mantissa' };
  return { mantissa: m, scale: definition.scale };
}

function isFail(v: Numeric | Fail): v is Fail {
  return 'code' in v;
}

/** Moves the amount (none when zero); the failure's reason, or undefined when paid. */
function collect(
  x: ExecContext,
  sub: Subscription,
  plan: SubscriptionPlan,
  amount: Numeric | Fail,
): Fail | undefined {
  if (isFail(amount)) return amount;
  if (amount.mantissa === 0n) return undefined;
  const mark = x.view.journal.mark();
  const source = assetId(plan.pricing.assetDefinition, sub.subscriber);
  const failed = transferValue(x, source, sub.provider, amount, false);
  if (failed !== undefined) x.view.journal.rollback(mark);
  return failed;
}

/**
 * Runs the due charge of `sub` now: for bill_for current the period starting at dueAtMs, for previous the
 * period in force (ending at dueAtMs). A subscription canceled at period end is closed at its billing
 * point instead (after charging the last period when billed in arrears).
 */
export function chargeSubscription(x: ExecContext, sub: Subscription, plan: SubscriptionPlan): void {
  const current = plan.billing.billFor.kind === 'Current';
  if (sub.cancelAtPeriodEnd && current) {
    close(x, sub);
    return;
  }
  const now = x.block.blockTimeMs;
  const due = sub.dueAtMs;
  const following = nextBoundary(plan.billing.cadence, due);
  const [periodStartMs, periodEndMs] = current ? [due, following] : [sub.currentPeriodStartMs, due];
  const amount = amountDue(x, sub, plan);
  const failed = collect(x, sub, plan, amount);
  const invoice: Invoice = {
    number: (sub.latestInvoice?.number ?? 0) + 1,
    periodStartMs,
    periodEndMs,
    attemptedAtMs: now,
    height: x.block.height,
    amount: isFail(amount) ? { mantissa: 0n, scale: 0 } : amount,
    assetDefinition: plan.pricing.assetDefinition,
    status:
      failed === undefined
        ? { kind: 'Paid' }
        : { kind: 'Failed', reason: failed.code, message: failed.message ?? failed.code },
  };
  const next = failed === undefined ? paid(sub, due, following) : unpaid(sub, plan, now);
  const row: Subscription = { ...next, latestInvoice: invoice };
  saveSubscription(x, sub, row);
  x.emit({ kind: 'SubscriptionInvoiced', id: sub.id, invoice, failureCount: row.failureCount });
  if (failed === undefined && sub.cancelAtPeriodEnd) close(x, row);
  else if (row.status.kind === 'Suspended') unscheduleBilling(x, row);
  else scheduleBilling(x, row);
}

function paid(sub: Subscription, due: number, following: number): Subscription {
  return {
    ...sub,
    status: status('Active'),
    currentPeriodStartMs: due,
    currentPeriodEndMs: following,
    dueAtMs: following,
    nextChargeMs: following,
    failureCount: 0,
    usageAccumulated: { mantissa: 0n, scale: sub.usageAccumulated.scale },
  };
}

function unpaid(sub: Subscription, plan: SubscriptionPlan, now: number): Subscription {
  const failureCount = sub.failureCount + 1;
  const b = plan.billing;
  const suspend = failureCount >= b.maxFailures && now >= sub.dueAtMs + b.graceMs;
  return {
    ...sub,
    status: status(suspend ? 'Suspended' : 'PastDue'),
    failureCount,
    nextChargeMs: now + b.retryBackoffMs,
  };
}

/** Ends a subscription now: status Canceled, billing trigger removed. */
export function close(x: ExecContext, sub: Subscription): void {
  unscheduleBilling(x, sub);
  saveSubscription(x, sub, { ...sub, status: status('Canceled'), cancelAtPeriodEnd: false });
}
