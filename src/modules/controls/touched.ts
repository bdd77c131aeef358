// What the transfer control instructions touch, for the history's definition and asset indexes
// (state/module-host.ts `TouchedBy`): the definition whose rules they set, and the holder's asset when
// they name a holder.

import type { TouchedBy } from '../../state/module-host.js';

export const controlTouches: TouchedBy = (ins, touch) => {
  switch (ins.kind) {
    case 'SetTransferFreeze':
    case 'SetTransferBlacklist':
    case 'SetTransferListEntry':
    case 'SetTransferCap':
      touch.definition(ins.definition);
      if (ins.account !== undefined) touch.asset(ins.definition, ins.account);
      return;
    default:
      return;
  }
};
