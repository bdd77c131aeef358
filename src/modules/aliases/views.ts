// Answer types of the alias routes, defined once as codec types: the JSON answer,
// the codec answer and the OpenAPI schema come from the same definition (gateway/view.ts).

import { option, seq, struct } from '../../codec/compound.js';
import { bool, string, u64, varuint } from '../../codec/primitives.js';
import { AccountId, AssetDefinitionId, DomainId } from '../../model/ids.js';
import { Name } from '../../model/names.js';
import { AliasText } from './literal.js';

/** `source` is always "ledger": aliases are ledger state, never an outside directory. */
const Source = string(16);

export const AccountAliasView = struct('AccountAliasResolution', {
  alias: AliasText,
  accountId: AccountId,
  index: varuint,
  isPrimary: bool,
  source: Source,
});

export const AliasIndexView = struct('AccountAliasIndexResolution', {
  index: varuint,
  alias: AliasText,
  accountId: AccountId,
  source: Source,
});

export const AccountAliasItemView = struct('AccountAliasItem', {
  alias: AliasText,
  domain: DomainId,
  index: varuint,
  isPrimary: bool,
});

export const AccountAliasListView = struct('AccountAliasList', {
  accountId: AccountId,
  total: varuint,
  items: seq(AccountAliasItemView, 500),
  source: Source,
});

export const AssetAliasView = struct('AssetAliasResolution', {
  alias: AliasText,
  assetDefinitionId: AssetDefinitionId,
  /** The definition's name (the part before '#'). */
  name: Name,
  /** permanent | leased_active | leased_grace | expired_pending_cleanup, at the committed tip's time */
  leaseStatus: string(32),
  leaseExpiresAtMs: option(u64),
  leaseGraceMs: option(u64),
  source: Source,
});
