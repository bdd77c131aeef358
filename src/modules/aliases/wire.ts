// The aliases module's wire declarations (docs/data-model.md §Aliases): its instruction and event
// variants, rejection meanings, weights, stored row types and tables. Their tags, numbers and ids are in
// model/tags.ts; importing this file (src/modules/registry.ts does) declares them into the core's codecs
// and tables. The literal syntax (`AliasText`, the label rules) is literal.ts.

import { option } from '../../codec/compound.js';
import { u64, varuint } from '../../codec/primitives.js';
import { AccountId, AssetDefinitionId } from '../../model/ids.js';
import { row } from '../../model/weights.js';
import { SINGLETON_ID } from '../../state/keys.js';
import { declareModuleWire } from '../../state/module-wire.js';
import { type TableDef, tableDef } from '../../state/tables.js';
import { AliasText, accountAliasProblem, aliasDomain, assetAliasProblem } from './literal.js';
import {
  type AccountAlias,
  AccountAliasCodec,
  type AliasCounter,
  AliasCounterCodec,
  AliasLeaseCodec,
  type AssetAlias,
  AssetAliasCodec,
} from './rows.js';

/** Literals are checked by the executor (alias_invalid, alias_is_account_id). A lease absent = permanent. */
const INSTRUCTIONS = {
  RegisterAccountAlias: { alias: AliasText, account: AccountId },
  TransferAccountAlias: { alias: AliasText, destination: AccountId },
  RemoveAccountAlias: { alias: AliasText },
  SetPrimaryAccountAlias: { alias: AliasText },
  SetAssetAlias: { alias: AliasText, definition: AssetDefinitionId, lease: option(AliasLeaseCodec) },
  RenewAssetAlias: { alias: AliasText, expiresAtMs: u64 },
  RemoveAssetAlias: { alias: AliasText },
};

/** Bound also on a transfer (with the new account). */
const EVENTS = {
  AccountAliasBound: { alias: AliasText, account: AccountId, index: varuint },
  AccountAliasUnbound: { alias: AliasText, account: AccountId, index: varuint },
  AccountAliasPrimarySet: { alias: AliasText, account: AccountId },
  AssetAliasSet: { alias: AliasText, definition: AssetDefinitionId, lease: option(AliasLeaseCodec) },
  AssetAliasRemoved: { alias: AliasText, definition: AssetDefinitionId },
};

declare module '../../model/instructions.js' {
  interface InstructionVariants extends AliasInstructionVariants {}
}
declare module '../../model/events.js' {
  interface DataEventVariants extends AliasEventVariants {}
}
declare module '../../state/tables.js' {
  interface TableRows {
    accountAlias: AccountAlias;
    aliasCounter: AliasCounter;
    assetAlias: AssetAlias;
  }
  interface IndexNames {
    /** Account aliases by the account they name, by their own domain, and by index (decimal text). */
    aliasesByAccount: unknown;
    aliasesByDomain: unknown;
    aliasByIndex: unknown;
    /** Asset aliases by the definition they name (at most one each). */
    aliasesByDefinition: unknown;
  }
}
type AliasInstructionVariants = typeof INSTRUCTIONS;
type AliasEventVariants = typeof EVENTS;

export const ALIAS_TABLES = [
  tableDef<AccountAlias>('accountAlias', AccountAliasCodec, {
    idOf: (v) => v.alias,
    links: (id, v) => [
      ['aliasesByAccount', v.account],
      ['aliasesByDomain', aliasDomain(id)],
      ['aliasByIndex', String(v.index)],
    ],
    check: (id, v) => accountAliasProblem(id)?.message ?? (v.index < 1 ? 'index below 1' : undefined),
  }),
  tableDef<AliasCounter>('aliasCounter', AliasCounterCodec, { idOf: () => SINGLETON_ID }),
  tableDef<AssetAlias>('assetAlias', AssetAliasCodec, {
    idOf: (v) => v.alias,
    links: (_id, v) => [['aliasesByDefinition', v.definition]],
    check: (id) => assetAliasProblem(id)?.message,
  }),
] as const;

export const aliasesWire = declareModuleWire({
  name: 'aliases',
  instructions: INSTRUCTIONS,
  events: EVENTS,
  // 7xx
  rejections: {
    alias_invalid: 'the alias literal is malformed (label, domain)',
    alias_is_account_id: 'the alias literal parses as an account id',
    alias_already_bound: 'the alias is bound (to another account or definition, or a live lease)',
    alias_not_found: 'no such alias',
    alias_lease_invalid: 'the lease ends at or before the block time, or its grace is too long',
    alias_lease_expired: 'the alias lease has expired (past its grace period)',
  },
  weights: {
    RegisterAccountAlias: row(40),
    TransferAccountAlias: row(40),
    RemoveAccountAlias: row(40),
    SetPrimaryAccountAlias: row(40),
    SetAssetAlias: row(40),
    RenewAssetAlias: row(40),
    RemoveAssetAlias: row(40),
  },
  schemaTypes: [AccountAliasCodec, AliasCounterCodec, AssetAliasCodec],
  tables: ALIAS_TABLES as unknown as readonly TableDef<never>[],
  docs: 'docs/data-model.md',
});
