// A lot obeys the transfer rules of its policy (docs/rwas.md §Transfer rules): the lot's
// `controls` names an asset definition, and every movement of the lot (a transfer, a forced transfer, a
// redemption) is put to the installed modules' transfer checks as a movement of that definition
// (state/module-host.ts `installedTransferChecks`, the neutral port `moveValue` uses), so the rules of
// whichever module checks transfers — freeze, blacklist, allow and deny lists, caps — refuse it as they
// would refuse the asset itself. No balance moves: the checks' follow-ups (usage counters) run once the
// lot is moved.

import { MANTISSA_MAX } from '../../model/numeric.js';
import type { ExecContext, Fail } from '../../state/exec-context.js';
import { installedTransferChecks, type TransferFollowUp } from '../../state/module-host.js';
import type { RwaLot } from './model.js';

/** A quantity at the lot's scale as a mantissa at `scale`, rounded up (a cap is never undercounted). */
export function quantityAt(mantissa: bigint, from: number, scale: number): bigint {
  if (scale >= from) return mantissa * 10n ** BigInt(scale - from);
  const div = 10n ** BigInt(from - scale);
  const q = (mantissa + div - 1n) / div;
  return q === 0n ? 1n : q;
}

/** Runs the follow-ups of the checks that let a movement through (once the lot has moved). */
export type PolicyDone = () => void;

/**
 * The transfer checks of the lot's policy for moving `mantissa` (at the lot's scale) from `from` to `to`
 * (`to` absent: a redemption, a burn; `from` absent: a registration, a mint). A Fail refuses the movement; else the function to call once the
 * movement is applied. A lot without controls, or whose policy definition is gone, moves unchecked.
 */
export function checkPolicy(
  x: ExecContext,
  lot: Pick<RwaLot, 'controls' | 'quantity'>,
  from: string | undefined,
  to: string | undefined,
  mantissa: bigint,
): Fail | PolicyDone {
  const definition = lot.controls;
  const d = definition === undefined ? undefined : x.t.assetDefinition.get(definition);
  if (definition === undefined || d === undefined) return () => {};
  const amount = quantityAt(mantissa, lot.quantity.scale, d.scale);
  const movement = {
    definition,
    scale: d.scale,
    ...(from === undefined ? {} : { from }),
    ...(to === undefined ? {} : { to }),
    amount: amount > MANTISSA_MAX ? MANTISSA_MAX : amount,
  };
  const followUps: TransferFollowUp[] = [];
  for (const check of installedTransferChecks()) {
    const v = check(x, movement);
    if (v === undefined) continue;
    if (typeof v !== 'function') return v;
    followUps.push(v);
  }
  return () => {
    for (const f of followUps) f(x);
  };
}
