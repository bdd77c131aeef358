// Adapts the committed world state and chain to the multisig routes' port (multisig/port.ts).

import { tipTimeMs } from '../gateway/id-resolver.js';
import type { ChainReader } from '../gateway/ports.js';
import type { MultisigPort } from '../multisig/port.js';
import { multisigOf, multisigsOfMember, proposalOf, proposalsOfMultisig } from '../state/multisig-reads.js';
import type { WorldState } from '../state/world-state.js';

export function multisigPort(state: WorldState, chain: Pick<ChainReader, 'height' | 'block'>): MultisigPort {
  return {
    multisig: (id) => multisigOf(state, id),
    proposal: (multisig, hash) => proposalOf(state, multisig, hash),
    proposalsOf: (multisig) => proposalsOfMultisig(state, multisig),
    multisigsOf: (member) => multisigsOfMember(state, member),
    tipTimeMs: () => tipTimeMs(chain),
  };
}
