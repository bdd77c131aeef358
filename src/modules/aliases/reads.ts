// Reads of the alias tables through their indexes (docs/data-model.md §Aliases): by numeric index, by
// account (optionally one alias domain), and an asset definition's alias. Copies, sorted by literal.
// `aliasReadPort` adapts the committed world state and chain to the alias routes' port (port.ts).

import { tipTimeMs } from '../../gateway/id-resolver.js';
import type { ChainReader } from '../../gateway/ports.js';
import { deepCopy } from '../../state/copy.js';
import type { WorldState } from '../../state/world-state.js';
import { aliasDomain } from './literal.js';
import type { AliasPort } from './port.js';
import type { AccountAlias, AssetAlias } from './rows.js';

/** An account alias by its literal (a copy). */
export function accountAlias(state: WorldState, alias: string): AccountAlias | undefined {
  const v = state.tables.accountAlias.get(alias);
  return v === undefined ? undefined : deepCopy(v);
}

/** An asset alias by its literal (a copy), whatever its lease status. */
export function assetAlias(state: WorldState, alias: string): AssetAlias | undefined {
  const v = state.tables.assetAlias.get(alias);
  return v === undefined ? undefined : deepCopy(v);
}

export function aliasByIndex(state: WorldState, index: number): AccountAlias | undefined {
  const [alias] = state.linkedIds('accountAlias', 'aliasByIndex', String(index));
  return alias === undefined ? undefined : accountAlias(state, alias);
}

/** The aliases bound to `account`, by literal; only those in `domain` when given. */
export function aliasesOfAccount(state: WorldState, account: string, domain?: string): AccountAlias[] {
  return state
    .linkedIds('accountAlias', 'aliasesByAccount', account)
    .filter((alias) => domain === undefined || aliasDomain(alias) === domain)
    .map((alias) => accountAlias(state, alias)!);
}

/** The alias of an asset definition (at most one), whatever its lease status. */
export function aliasOfDefinition(state: WorldState, definition: string): AssetAlias | undefined {
  const [alias] = state.linkedIds('assetAlias', 'aliasesByDefinition', definition);
  return alias === undefined ? undefined : assetAlias(state, alias);
}

export function aliasReadPort(state: WorldState, chain: Pick<ChainReader, 'height' | 'block'>): AliasPort {
  return {
    accountAlias: (alias) => accountAlias(state, alias),
    aliasByIndex: (index) => aliasByIndex(state, index),
    aliasesOfAccount: (account, domain) => aliasesOfAccount(state, account, domain),
    accountExists: (id) => state.peek('account', id) !== undefined,
    idName: (kind, text) => state.idName(kind, text),
    idNameForms: (kind) => state.idNameForms(kind),
    assetAlias: (alias) => assetAlias(state, alias),
    tipTimeMs: () => tipTimeMs(chain),
  };
}
