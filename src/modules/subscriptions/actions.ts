// The code of `torana subscription …` (commands.ts).

import { type Flags, submit } from '../../cli/client-actions.js';
import { CliError } from '../../cli/errors.js';
import { printJson, printRecord, printTable } from '../../cli/output.js';
import { resolveClient } from '../../cli/settings.js';
import type { Json } from '../../codec/codec.js';
import { subscriptionDetail, subscriptionPlans, subscriptionsList } from './sdk.js';
import { subscriptionInstructions as ix, type PlanInput } from './sdk-instructions.js';
import { PlanListView, SubscriptionItemView, SubscriptionListView } from './views.js';

function int(text: string | undefined, name: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^[0-9]{1,16}$/.test(text))
    throw new CliError('invalid_argument', `${name} must be a whole number`, 2);
  return Number(text);
}

type PlanFlags = Flags & {
  monthly?: string;
  anchorTimeMs: string;
  periodMs?: string;
  usage?: string;
  billFor: string;
  retryBackoffMs: string;
  maxFailures: string;
  graceMs: string;
  trialMs: string;
};

export function planRegister(id: string, definition: string, price: string, f: PlanFlags) {
  const monthly = int(f.monthly, '--monthly');
  const period = int(f.periodMs, '--period-ms');
  if ((monthly === undefined) === (period === undefined))
    throw new CliError('invalid_argument', 'give exactly one of --monthly and --period-ms', 2);
  if (f.billFor !== 'current' && f.billFor !== 'previous')
    throw new CliError('invalid_argument', '--bill-for is current or previous', 2);
  const plan: PlanInput = {
    cadence:
      monthly === undefined
        ? { fixedPeriodMs: period! }
        : { monthlyCalendar: { anchorDay: monthly, anchorTimeMs: int(f.anchorTimeMs, '--anchor-time-ms')! } },
    billFor: f.billFor,
    retryBackoffMs: int(f.retryBackoffMs, '--retry-backoff-ms')!,
    maxFailures: int(f.maxFailures, '--max-failures')!,
    graceMs: int(f.graceMs, '--grace-ms')!,
    trialMs: int(f.trialMs, '--trial-ms')!,
    pricing:
      f.usage === undefined
        ? { fixed: { amount: price, assetDefinition: definition } }
        : { usage: { unitPrice: price, unitKey: f.usage, assetDefinition: definition } },
  };
  return submit(f, () => [ix.registerSubscriptionPlan(id, plan)]);
}

export const subscribe = (id: string, plan: string, f: Flags) => submit(f, () => [ix.subscribe(id, plan)]);
export const cancel = (id: string, f: Flags & { atPeriodEnd?: boolean }) =>
  submit(f, () => [ix.cancelSubscription(id, f.atPeriodEnd === true)]);
export const keep = (id: string, f: Flags) => submit(f, () => [ix.keepSubscription(id)]);
export const pause = (id: string, f: Flags) => submit(f, () => [ix.pauseSubscription(id)]);
export const resume = (id: string, f: Flags) => submit(f, () => [ix.resumeSubscription(id)]);
export const chargeNow = (id: string, f: Flags) => submit(f, () => [ix.chargeSubscriptionNow(id)]);
export const usage = (id: string, unitKey: string, units: string, f: Flags) =>
  submit(f, () => [ix.recordSubscriptionUsage(id, unitKey, units)]);

type ListFlags = Flags & { ownedBy?: string; provider?: string; status?: string; plans?: boolean };

export async function list(f: ListFlags): Promise<void> {
  const { client } = await resolveClient(f, false);
  if (f.plans === true) {
    const out = await subscriptionPlans(client, f.provider === undefined ? {} : { provider: f.provider });
    if (f.json) printJson(PlanListView.toJson(out));
    else printTable(out.items.map((p) => ({ id: p.id, provider: p.provider, pricing: p.pricing.kind })));
    return;
  }
  const out = await subscriptionsList(client, {
    ...(f.ownedBy === undefined ? {} : { ownedBy: f.ownedBy }),
    ...(f.provider === undefined ? {} : { provider: f.provider }),
    ...(f.status === undefined ? {} : { status: f.status }),
  });
  if (f.json) printJson(SubscriptionListView.toJson(out));
  else
    printTable(
      out.items.map((i) => ({
        id: i.subscriptionId,
        plan: i.subscription.planId,
        status: i.subscription.status.kind,
        next_charge_ms: i.subscription.nextChargeMs,
        last_invoice: i.invoice?.status.kind,
      })),
    );
}

export async function get(id: string, f: Flags): Promise<void> {
  const { client } = await resolveClient(f, false);
  const json = SubscriptionItemView.toJson(await subscriptionDetail(client, id)) as Record<string, Json>;
  if (f.json) printJson(json);
  else printRecord(json);
}
