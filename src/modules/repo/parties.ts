// The accounts the repo instructions name as parties (the commit-time account index, pipeline/involved.ts): the
// counterparty (and custodian) an initiation names. Read from the instruction alone.

import type { InstructionParties } from '../../state/module-host.js';

export const repoParties: InstructionParties = {
  InitiateRepo: (ins) => [ins.counterparty, ...(ins.custodian === undefined ? [] : [ins.custodian])],
};
