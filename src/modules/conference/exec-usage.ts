// RecordConferenceUsage (docs/conference.md §Billing): adds a usage segment to the call's totals and
// bills it in the native asset, both in the same transaction (all or nothing). The call's total
// duration is bounded by what it could have used (block time since creation × maxParticipants), and
// billing rounds the running total, not each segment: a segment bills ceil(total after) − ceil(total
// before), so splitting usage into many segments bills exactly what one segment of the sum would.

import type { AssetDefinition } from '../../model/entities.js';
import type { Numeric } from '../../model/numeric.js';
import { checkedAdd } from '../../state/amounts.js';
import {
  type ExecContext,
  type Fail,
  fail,
  type Handler,
  type InstructionOf,
} from '../../state/exec-context.js';
import { charge, checkBilled, gasFor, nativeAsset } from './exec-billing.js';
import {
  isFail,
  isZero,
  loadCall,
  putCall,
  requireActive,
  requireBillingAllowed,
  requirePrivacy,
} from './exec-common.js';
import { privateUsage } from './exec-private.js';
import { type ConferenceCall, conferenceGas } from './model.js';

type Usage = InstructionOf<'RecordConferenceUsage'>;

/** The host, or the operator of a relay in the call's current manifest. */
function mayRecord(x: ExecContext, call: ConferenceCall): boolean {
  if (x.authority === call.host) return true;
  return (call.manifest?.hops ?? []).some((h) => x.t.conferenceRelay.get(h.relay)?.operator === x.authority);
}

/** Role, privacy, participant and segment checks, in order. */
function checkUsage(x: ExecContext, call: ConferenceCall, ins: Usage): Fail | undefined {
  if (!mayRecord(x, call))
    return fail('conference_usage_not_allowed', 'only the host or a manifest relay operator records usage');
  const priv = call.roster.kind === 'ZkRosterV1';
  const mismatch =
    requirePrivacy(priv, ins.private !== undefined, 'a roster proof') ??
    (priv && ins.participant !== undefined
      ? fail('conference_privacy_mismatch', 'a private call names no participant')
      : undefined);
  if (mismatch) return mismatch;
  const p = ins.participant;
  if (p !== undefined && call.roster.kind === 'Transparent' && !call.roster.participants.includes(p))
    return fail('conference_not_participant', `${p} is not in ${call.id}`);
  const last = call.usage.lastSegment;
  if (last !== undefined && ins.segment <= last)
    return fail('conference_segment_not_increasing', `segment must be above ${last}`);
  return checkElapsed(x, call, ins);
}

/**
 * What the call could have used by the block time: one participant at most the time since creation in
 * a segment, the call's total at most that time × maxParticipants (block time, never the wall clock).
 */
function checkElapsed(x: ExecContext, call: ConferenceCall, ins: Usage): Fail | undefined {
  const elapsed = BigInt(x.block.blockTimeMs) - call.createdAtMs;
  const since = elapsed > 0n ? elapsed : 0n;
  const cap = ins.participant === undefined ? since * BigInt(call.maxParticipants) : since;
  if (ins.durationMs > cap || call.usage.durationMs + ins.durationMs > since * BigInt(call.maxParticipants))
    return fail(
      'conference_usage_exceeds_elapsed',
      `${call.id} has existed ${since} ms (× ${call.maxParticipants} participants); it has ${call.usage.durationMs} ms recorded`,
    );
  return undefined;
}

interface Bill {
  readonly definition: AssetDefinition | undefined;
  readonly units: bigint;
  readonly scale: number;
}

/**
 * What the segment costs: the native asset (unless the rate is zero) and the exact units, the
 * difference between the rounded-up running totals after and before it.
 */
function bill(x: ExecContext, call: ConferenceCall, ins: Usage): Bill | Fail {
  if (isZero(call.gasRatePerMinute)) {
    const zero = checkBilled(0n, ins.billedGas, ins.billedGas.scale);
    return zero ?? { definition: undefined, units: 0n, scale: 0 };
  }
  const definition = nativeAsset(x);
  if (isFail(definition)) return definition;
  const before = call.usage.durationMs;
  const after = gasFor(call.gasRatePerMinute, before + ins.durationMs, definition.scale);
  if (isFail(after)) return after;
  const units = after - conferenceGas(call.gasRatePerMinute, before, definition.scale);
  const mismatch = checkBilled(units, ins.billedGas, definition.scale);
  return mismatch ?? { definition, units, scale: definition.scale };
}

/** The running totals plus this segment: overflow when a total passes its bound. */
function totals(call: ConferenceCall, ins: Usage, b: Bill): ConferenceCall | Fail {
  const u = call.usage;
  const durationMs = u.durationMs + ins.durationMs;
  if (durationMs >= 1n << 64n) return fail('overflow', 'total duration exceeds u64');
  // The total is kept at the larger of its scale and the bill's, so adding is exact.
  const scale = Math.max(u.billedGas.scale, b.scale);
  const at = (mantissa: bigint, from: number) => mantissa * 10n ** BigInt(scale - from);
  const billed = checkedAdd(at(u.billedGas.mantissa, u.billedGas.scale), at(b.units, b.scale));
  if (billed === undefined || u.segments === 0xffffffff) return fail('overflow', 'usage totals overflow');
  const billedGas: Numeric = { mantissa: billed, scale };
  const usage = { durationMs, billedGas, segments: u.segments + 1, lastSegment: ins.segment };
  return { ...call, usage };
}

export const recordConferenceUsage: Handler<'RecordConferenceUsage'> = (x, ins) => {
  const call = loadCall(x, ins.call);
  if (isFail(call)) return call;
  const checked = requireActive(call) ?? checkUsage(x, call, ins);
  if (checked) return checked;
  if (call.roster.kind === 'ZkRosterV1') {
    const denied = privateUsage(x, call, ins);
    if (denied) return denied;
  }
  const b = bill(x, call, ins);
  if (isFail(b)) return b;
  const next = totals(call, ins, b);
  if (isFail(next)) return next;
  let payee: string | undefined;
  if (b.definition !== undefined && b.units > 0n) {
    payee = b.definition.ownedBy;
    const denied =
      requireBillingAllowed(x, call.host, call.billingAccount) ??
      charge(x, b.definition, call.billingAccount, payee, b.units);
    if (denied) return denied;
  }
  putCall(x, next);
  x.emit({
    kind: 'ConferenceUsageSummary',
    call: call.id,
    segment: ins.segment,
    durationMs: ins.durationMs,
    billedGas: { mantissa: b.units, scale: b.scale },
    totalDurationMs: next.usage.durationMs,
    totalBilledGas: next.usage.billedGas,
    ...(payee === undefined ? {} : { payer: call.billingAccount, payee }),
  });
  return undefined;
};
