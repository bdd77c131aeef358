// Builders of the transfer control instructions (docs/controls.md §Instructions), spread into
// `instructions` (instructions.ts). Without `account` a rule is definition-wide (every holder).
// Windows: 'tx' | 'hour' | 'day' | 'week' | 'month'; amounts are decimals at the definition scale.

import { type ControlWindowKind, parseWindowName } from '../model/controls.js';
import type { Instruction } from '../model/instructions.js';
import { type Numeric, numeric } from '../model/numeric.js';

export type TransferWindow = 'tx' | 'hour' | 'day' | 'week' | 'month';

function windowKind(window: TransferWindow): ControlWindowKind {
  const kind = parseWindowName(window);
  if (kind === undefined) throw new RangeError(`window must be tx, hour, day, week or month, not ${window}`);
  return kind;
}

const who = (account: string | undefined) => (account === undefined ? {} : { account });

export const controlInstructions = {
  /** Freezes (or with `frozen` false unfreezes) outgoing transfers of `account`, or of every holder. */
  setTransferFreeze: (definition: string, frozen: boolean, account?: string): Instruction => ({
    kind: 'SetTransferFreeze',
    definition,
    frozen,
    ...who(account),
  }),
  /** Blacklists (or clears) `account` — it may neither send nor receive — or the whole definition. */
  setTransferBlacklist: (definition: string, blacklisted: boolean, account?: string): Instruction => ({
    kind: 'SetTransferBlacklist',
    definition,
    blacklisted,
    ...who(account),
  }),
  /** Adds `account` to (or with `listed` false removes it from) the definition's allow or deny list. */
  setTransferListEntry: (
    definition: string,
    list: 'allow' | 'deny',
    account: string,
    listed = true,
  ): Instruction => ({
    kind: 'SetTransferListEntry',
    definition,
    list: { kind: list === 'allow' ? 'Allow' : 'Deny' },
    account,
    listed,
  }),
  /** Sets the cap of `window` (a decimal, > 0) or removes it (`cap` undefined); per account or for every holder. */
  setTransferCap: (
    definition: string,
    window: TransferWindow,
    cap: string | Numeric | undefined,
    account?: string,
  ): Instruction => ({
    kind: 'SetTransferCap',
    definition,
    window: { kind: windowKind(window) },
    ...who(account),
    ...(cap === undefined ? {} : { cap: typeof cap === 'string' ? numeric(cap) : cap }),
  }),
} as const;
