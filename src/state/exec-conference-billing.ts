// Conference billing (docs/conference.md §Billing): usage is billed in the native asset (custom
// parameter `native_asset`, an asset definition id) from the call's billing account to the owner of
// that definition, by a transfer inside the recording transaction.
//
// A segment bills ceil(total × gasRatePerMinute / 60 000) − ceil(previous total × gasRatePerMinute /
// 60 000), at the native asset's scale: the running total is rounded up to the smallest unit (a started
// unit is paid once), never each segment. Exact bigint arithmetic only.

import type { Json } from '../codec/codec.js';
import { conferenceGas } from '../model/conference.js';
import type { AssetDefinition } from '../model/entities.js';
import { assetId } from '../model/ids.js';
import { MANTISSA_MAX, type Numeric, rescale } from '../model/numeric.js';
import { type ExecContext, type Fail, fail } from './exec-context.js';
import { moveValue } from './exec-value.js';

export const NATIVE_ASSET_PARAMETER = 'native_asset';

/** The native asset definition: conference_native_asset_not_configured when unset or unknown. */
export function nativeAsset(x: ExecContext): AssetDefinition | Fail {
  const payload: Json | undefined = x.view.parameters().custom.get(NATIVE_ASSET_PARAMETER);
  const d = typeof payload === 'string' ? x.t.assetDefinition.get(payload) : undefined;
  return (
    d ??
    fail(
      'conference_native_asset_not_configured',
      `the ${NATIVE_ASSET_PARAMETER} parameter must name an asset definition`,
    )
  );
}

/** ceil(durationMs × rate / 60 000) as a mantissa at `scale`; overflow above 2^128-1. */
export function gasFor(rate: Numeric, durationMs: bigint, scale: number): bigint | Fail {
  const gas = conferenceGas(rate, durationMs, scale);
  return gas > MANTISSA_MAX ? fail('overflow', 'billed gas exceeds the 128-bit mantissa') : gas;
}

/**
 * The gas `billed` must equal, as a mantissa at the native scale (0 without a native asset, which only
 * a zero rate allows): conference_billing_mismatch when it differs.
 */
export function checkBilled(expected: bigint, billed: Numeric, scale: number): Fail | undefined {
  const given = billed.mantissa === 0n ? 0n : rescale(billed, scale);
  if (given === expected) return undefined;
  return fail(
    'conference_billing_mismatch',
    `billedGas must be ${expected} units at scale ${scale} (ceil(total after × rate / 60000) − ceil(total before × rate / 60000))`,
  );
}

/**
 * Moves `amount` (a mantissa at the definition scale, > 0) of `definition` from `from` to `to`:
 * account_not_found, insufficient_funds, the transfer checks' codes (moveValue). Paying oneself moves
 * nothing.
 */
export function charge(
  x: ExecContext,
  definition: AssetDefinition,
  from: string,
  to: string,
  amount: bigint,
): Fail | undefined {
  if (!x.t.account.has(from)) return fail('account_not_found', `no billing account ${from}`);
  if (!x.t.account.has(to)) return fail('account_not_found', `no payee account ${to}`);
  const source = assetId(definition.id, from);
  const held = x.t.asset.get(source)?.value.mantissa ?? 0n;
  if (held < amount) return fail('insufficient_funds', `${source} holds less than the billed gas`);
  if (from === to) return undefined;
  // The one path value moves through: the modules' transfer checks apply to billing and shielding too.
  return moveValue(x, { definition: definition.id, scale: definition.scale, from, to, amount });
}
