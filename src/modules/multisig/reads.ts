// Reads of the multisig tables through their indexes (docs/multisig.md): copies, sorted by id; and the
// routes' port over the committed world state and chain.

import { tipTimeMs } from '../../gateway/id-resolver.js';
import type { ChainReader } from '../../gateway/ports.js';
import { deepCopy } from '../../state/copy.js';
import type { WorldState } from '../../state/world-state.js';
import type { MultisigAccount } from './model.js';
import { proposalRowId } from './model.js';
import type { MultisigPort } from './port.js';
import type { MultisigProposal } from './proposal-row.js';

export function multisigOf(state: WorldState, id: string): MultisigAccount | undefined {
  const row = state.tables.multisigAccount.get(id);
  return row === undefined ? undefined : deepCopy(row);
}

export function proposalOf(state: WorldState, multisig: string, hash: string): MultisigProposal | undefined {
  const row = state.tables.multisigProposal.get(proposalRowId(multisig, hash));
  return row === undefined ? undefined : deepCopy(row);
}

/** Proposals of a multisig account, by instructions hash (index multisig → proposals). */
export function proposalsOfMultisig(state: WorldState, multisig: string): MultisigProposal[] {
  return state
    .linkedIds('multisigProposal', 'proposalsByMultisig', multisig)
    .map((id) => deepCopy(state.tables.multisigProposal.get(id)!));
}

/** The multisig accounts `member` is a signatory of, sorted (index member → multisigs). */
export function multisigsOfMember(state: WorldState, member: string): string[] {
  return [...state.linkedIds('multisigAccount', 'multisigsByMember', member)];
}

/** The multisig routes' port over the committed world state and chain. */
export function multisigReadPort(
  state: WorldState,
  chain: Pick<ChainReader, 'height' | 'block'>,
): MultisigPort {
  return {
    multisig: (id) => multisigOf(state, id),
    proposal: (multisig, hash) => proposalOf(state, multisig, hash),
    proposalsOf: (multisig) => proposalsOfMultisig(state, multisig),
    multisigsOf: (member) => multisigsOfMember(state, member),
    tipTimeMs: () => tipTimeMs(chain),
  };
}
