// The accounts the lot instructions name as parties (the commit-time account index, pipeline/involved.ts): the owner a lot
// is registered to, the receiver of a (forced) transfer. Read from the instruction alone.

import type { InstructionParties } from '../../state/module-host.js';

export const rwaParties: InstructionParties = {
  RegisterRwa: (ins) => [ins.owner],
  TransferRwa: (ins) => [ins.to],
  ForceTransferRwa: (ins) => [ins.to],
};
