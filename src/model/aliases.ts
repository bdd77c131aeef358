// Account aliases and asset aliases (docs/data-model.md §Aliases).
//   account alias   <label>@<domain>     alice@wonderland   never a public key before the '@'
//   asset alias     <label>              usd.stable         no '#', '@' or '$': never an entity id
// A label is 1..64 characters of [a-z0-9._-] starting with a letter or digit. Instructions carry the
// literal as a bounded string and the executor checks it, so a bad literal is a ledger rejection with a
// stable code (alias_invalid, alias_is_account_id), not an undecodable transaction.

import type { Infer } from '../codec/codec.js';
import { option, struct } from '../codec/compound.js';
import { bool, string, u64, varuint } from '../codec/primitives.js';
import { AccountId, AssetDefinitionId, parseAccountId } from './ids.js';
import { nameProblem } from './names.js';

export const ALIAS_LABEL_CHARS_MAX = 64;
/** Upper bound of an alias literal on the wire: a label, '@' and a 128-byte domain name. */
export const ALIAS_TEXT_BYTES_MAX = ALIAS_LABEL_CHARS_MAX + 1 + 128;
/** The longest grace period an expiring asset alias lease may carry (one year). */
export const ALIAS_GRACE_MS_MAX = 365n * 24n * 3600n * 1000n;

const LABEL = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** Why an alias literal is malformed: `invalid` (syntax) or `account_id` (it is an account id). */
export type AliasProblem = { kind: 'invalid' | 'account_id'; message: string };

/** Checks an account alias `<label>@<domain>`; undefined when it is a valid literal. */
export function accountAliasProblem(text: string): AliasProblem | undefined {
  // An account id first: its key part is no label (upper-case hex, or too long), so test it first to
  // give the precise code for the one confusion this syntax must rule out.
  if (parseAccountId(text) !== undefined)
    return { kind: 'account_id', message: `${text} is an account id, not an alias` };
  const at = text.indexOf('@');
  if (at < 0 || text.indexOf('@', at + 1) >= 0)
    return { kind: 'invalid', message: 'an account alias is <label>@<domain>' };
  const label = text.slice(0, at);
  if (!LABEL.test(label))
    return {
      kind: 'invalid',
      message: `label ${JSON.stringify(label)}: 1..64 of [a-z0-9._-], from [a-z0-9]`,
    };
  const domain = nameProblem(text.slice(at + 1));
  return domain === undefined ? undefined : { kind: 'invalid', message: `domain: ${domain}` };
}

/** Checks an asset alias `<label>`; undefined when it is a valid literal. */
export function assetAliasProblem(text: string): AliasProblem | undefined {
  if (parseAccountId(text) !== undefined)
    return { kind: 'account_id', message: `${text} is an account id, not an alias` };
  return LABEL.test(text)
    ? undefined
    : { kind: 'invalid', message: 'an asset alias is a label: 1..64 of [a-z0-9._-], from [a-z0-9]' };
}

/** The domain part of a valid account alias. */
export function aliasDomain(alias: string): string {
  return alias.slice(alias.indexOf('@') + 1);
}

/** The text an instruction carries for an alias (checked by the executor, see above). */
export const AliasText = string(ALIAS_TEXT_BYTES_MAX);

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
