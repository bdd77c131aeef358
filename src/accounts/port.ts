// What the application reads of accounts and definitions need from the node (gateway/family.ts): the committed world state, and
// the committed tip's block time (an asset alias is resolved against it, gateway/alias-resolver.ts).
// node/families.ts adapts the node to it in one line.

import type { AliasChain } from '../gateway/alias-resolver.js';
import type { StateReader } from '../gateway/ports.js';

export interface AccountsPort {
  state: StateReader;
  /** The committed chain's height and blocks (for the tip's block time). */
  chain: AliasChain;
}
