// What the alias routes read from the node (families see small interfaces). The node
// adapts its committed world state and chain to it (reads.ts aliasReadPort).

import type { IdNameState } from '../../gateway/id-resolver.js';
import type { AccountAlias, AssetAlias } from './rows.js';

/** Committed alias rows; answers are copies the caller may keep. An account is given by id or name. */
export interface AliasPort extends IdNameState {
  accountAlias(alias: string): AccountAlias | undefined;
  aliasByIndex(index: number): AccountAlias | undefined;
  /** Aliases bound to an account, sorted by literal; only those in `domain` when given. */
  aliasesOfAccount(account: string, domain?: string): AccountAlias[];
  accountExists(id: string): boolean;
  assetAlias(alias: string): AssetAlias | undefined;
  /** The block time of the committed tip, against which lease status is evaluated (0 before block 1). */
  tipTimeMs(): Promise<number>;
}
