// What the multisig routes read from the node (families see small interfaces). The committed world
// state and chain are adapted to it in reads.ts (multisigReadPort). Answers are copies.

import type { MultisigAccount } from './model.js';
import type { MultisigProposal } from './proposal-row.js';

export interface MultisigPort {
  /** The multisig account row (its spec), or undefined when `id` is no multisig account. */
  multisig(id: string): MultisigAccount | undefined;
  proposal(multisig: string, instructionsHash: string): MultisigProposal | undefined;
  /** Every proposal of a multisig account, by instructions hash (index multisig → proposals). */
  proposalsOf(multisig: string): MultisigProposal[];
  /** The multisig accounts `member` is a signatory of, sorted (index member → multisigs). */
  multisigsOf(member: string): readonly string[];
  /** The block time of the committed tip: EXPIRED is judged against it (0 before block 1). */
  tipTimeMs(): Promise<number>;
}
