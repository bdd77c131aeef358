// Adapts the committed world state and chain to the alias routes' port (aliases/port.ts).

import type { AliasPort } from '../aliases/port.js';
import { tipTimeMs } from '../gateway/alias-resolver.js';
import type { ChainReader } from '../gateway/ports.js';
import { aliasByIndex, aliasesOfAccount } from '../state/alias-reads.js';
import type { WorldState } from '../state/world-state.js';

export function aliasPort(state: WorldState, chain: Pick<ChainReader, 'height' | 'block'>): AliasPort {
  return {
    accountAlias: (alias) => state.accountAlias(alias),
    aliasByIndex: (index) => aliasByIndex(state, index),
    aliasesOfAccount: (account, domain) => aliasesOfAccount(state, account, domain),
    accountExists: (id) => state.peek('account', id) !== undefined,
    assetAlias: (alias) => state.assetAlias(alias),
    tipTimeMs: () => tipTimeMs(chain),
  };
}
