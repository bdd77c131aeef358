// The native asset (custom parameter `native_asset`, an asset definition id) and the one charge path
// usage billing and the shielded pool pay through: a transfer inside the executing transaction, under
// the installed modules' transfer checks (exec-value.ts).

import type { Json } from '../codec/codec.js';
import type { AssetDefinition } from '../model/entities.js';
import { assetId } from '../model/ids.js';
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
