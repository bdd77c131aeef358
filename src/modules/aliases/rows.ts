// The aliases module's stored rows (docs/data-model.md §Aliases): bound account aliases, the index
// counter, asset aliases and their leases. The literal syntax is literal.ts.

import type { Infer } from '../../codec/codec.js';
import { option, struct } from '../../codec/compound.js';
import { bool, u64, varuint } from '../../codec/primitives.js';
import { AccountId, AssetDefinitionId } from '../../model/ids.js';
import { AliasText } from './literal.js';

/** A bound account alias (world-state table 0x11, keyed by the literal). */
export const AccountAliasCodec = struct('AccountAlias', {
  alias: AliasText,
  account: AccountId,
  /** Assigned from the alias counter when the literal is bound; kept by transfers, never reused. */
  index: varuint,
  /** At most one alias of an account is primary. */
  primary: bool,
});
export type AccountAlias = Infer<typeof AccountAliasCodec>;

/** The alias index counter (world-state table 0x12, one row): the last index assigned. */
export const AliasCounterCodec = struct('AliasCounter', { lastIndex: varuint });
export type AliasCounter = Infer<typeof AliasCounterCodec>;

/** An expiring lease: active until expiresAtMs (block time), then grace for graceMs, then expired. */
export const AliasLeaseCodec = struct('AliasLease', { expiresAtMs: u64, graceMs: u64 });
export type AliasLease = Infer<typeof AliasLeaseCodec>;

/** An asset definition's alias (world-state table 0x13, keyed by the literal); no lease = permanent. */
export const AssetAliasCodec = struct('AssetAlias', {
  alias: AliasText,
  definition: AssetDefinitionId,
  lease: option(AliasLeaseCodec),
});
export type AssetAlias = Infer<typeof AssetAliasCodec>;

export type LeaseStatus = 'permanent' | 'leased_active' | 'leased_grace' | 'expired_pending_cleanup';

/** The lease status at a block time (the header's, never the wall clock: deterministic). */
export function leaseStatus(lease: AliasLease | undefined, blockTimeMs: number): LeaseStatus {
  if (lease === undefined) return 'permanent';
  const now = BigInt(blockTimeMs);
  if (now < lease.expiresAtMs) return 'leased_active';
  if (now < lease.expiresAtMs + lease.graceMs) return 'leased_grace';
  return 'expired_pending_cleanup';
}

/** Whether an asset alias still names its definition (resolution in place of an id). */
export function leaseLive(status: LeaseStatus): boolean {
  return status !== 'expired_pending_cleanup';
}
