// What the application reads of accounts and definitions need from the node (gateway/family.ts): the committed world state, and
// the committed tip's block time (a timed name is resolved against it, gateway/id-resolver.ts).
// node/families.ts adapts the node to it in one line.

import type { IdChain } from '../gateway/id-resolver.js';
import type { StateReader } from '../gateway/ports.js';

export interface AccountsPort {
  state: StateReader;
  /** The committed chain's height and blocks (for the tip's block time). */
  chain: IdChain;
}
