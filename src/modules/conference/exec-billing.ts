// Conference billing (docs/conference.md §Billing): usage is billed in the native asset (custom
// parameter `native_asset`, an asset definition id) from the call's billing account to the owner of
// that definition, by a transfer inside the recording transaction.
//
// A segment bills ceil(total × gasRatePerMinute / 60 000) − ceil(previous total × gasRatePerMinute /
// 60 000), at the native asset's scale: the running total is rounded up to the smallest unit (a started
// unit is paid once), never each segment. Exact bigint arithmetic only.

import { MANTISSA_MAX, type Numeric, rescale } from '../../model/numeric.js';
import { type Fail, fail } from '../../state/exec-context.js';
import { conferenceGas } from './model.js';

export { charge, NATIVE_ASSET_PARAMETER, nativeAsset } from '../../state/exec-native-asset.js';

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
