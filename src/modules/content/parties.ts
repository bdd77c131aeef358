// The accounts the bundle instructions name as parties (the commit-time account index, pipeline/involved.ts): the accounts
// an allow-list names. Read from the instruction alone.

import type { InstructionParties } from '../../state/module-host.js';

export const contentParties: InstructionParties = {
  RegisterContentBundle: (ins) => (ins.access.kind === 'AllowList' ? ins.access.accounts : []),
  SetContentBundleAccess: (ins) => (ins.access.kind === 'AllowList' ? ins.access.accounts : []),
};
