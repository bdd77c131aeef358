// The transfer controls module's wire declarations (docs/controls.md): its instruction and event variants,
// rejection meanings, weights, stored row types and tables. Their tags, numbers and ids are in
// model/tags.ts; importing this file (src/modules/registry.ts does) declares them into the core's codecs
// and tables.

import { option } from '../../codec/compound.js';
import { bool } from '../../codec/primitives.js';
import { AccountId, AssetDefinitionId, assetId, parseAssetId } from '../../model/ids.js';
import { NumericCodec } from '../../model/numeric.js';
import { row } from '../../model/weights.js';
import { declareModuleWire } from '../../state/module-wire.js';
import { type TableDef, tableDef } from '../../state/tables.js';
import {
  type AssetControl,
  AssetControlCodec,
  ControlListCodec,
  ControlWindowCodec,
  controlProblem,
  type DefinitionControl,
  DefinitionControlCodec,
  sortedProblem,
} from './model.js';
// Its permission token is part of its wire: declared wherever the module registry is loaded (the CLI's
// `permission tokens` lists it), not only where the handlers run.
import './permissions.js';

/**
 * One contiguous block. `account` absent = the definition-wide record (every holder); `cap` absent
 * removes that window's cap; `listed` false removes the entry.
 */
const INSTRUCTIONS = {
  SetTransferFreeze: { definition: AssetDefinitionId, account: option(AccountId), frozen: bool },
  SetTransferBlacklist: { definition: AssetDefinitionId, account: option(AccountId), blacklisted: bool },
  SetTransferListEntry: {
    definition: AssetDefinitionId,
    list: ControlListCodec,
    account: AccountId,
    listed: bool,
  },
  SetTransferCap: {
    definition: AssetDefinitionId,
    account: option(AccountId),
    window: ControlWindowCodec,
    cap: option(NumericCodec),
  },
};

/** One per changed rule; `account` absent = definition-wide. */
const EVENTS = {
  ControlFreezeSet: { definition: AssetDefinitionId, account: option(AccountId), frozen: bool },
  ControlBlacklistSet: { definition: AssetDefinitionId, account: option(AccountId), blacklisted: bool },
  ControlListEntrySet: {
    definition: AssetDefinitionId,
    list: ControlListCodec,
    account: AccountId,
    listed: bool,
  },
  ControlCapSet: {
    definition: AssetDefinitionId,
    account: option(AccountId),
    window: ControlWindowCodec,
    cap: option(NumericCodec),
  },
};

declare module '../../model/instructions.js' {
  interface InstructionVariants extends ControlInstructionVariants {}
}
declare module '../../model/events.js' {
  interface DataEventVariants extends ControlEventVariants {}
}
declare module '../../state/tables.js' {
  interface TableRows {
    assetControl: AssetControl;
    definitionControl: DefinitionControl;
  }
  interface IndexNames {
    /** Account controls (0x17) by account and by definition (cascades on unregister). */
    controlsByAccount: unknown;
    controlsByDefinition: unknown;
  }
}
type ControlInstructionVariants = typeof INSTRUCTIONS;
type ControlEventVariants = typeof EVENTS;

export const CONTROL_TABLES = [
  tableDef<AssetControl>('assetControl', AssetControlCodec, {
    idOf: (v) => assetId(v.definition, v.account),
    linksById: true,
    links: (id) => {
      const p = parseAssetId(id);
      return p === undefined
        ? []
        : [
            ['controlsByAccount', p.account],
            ['controlsByDefinition', p.definition],
          ];
    },
    check: (_id, v) => controlProblem(v.limits, v.usages),
  }),
  tableDef<DefinitionControl>('definitionControl', DefinitionControlCodec, {
    idOf: (v) => v.definition,
    check: (_id, v) =>
      controlProblem(v.limits, []) ?? sortedProblem(v.allowList) ?? sortedProblem(v.denyList),
  }),
] as const;

export const controlsWire = declareModuleWire({
  name: 'controls',
  instructions: INSTRUCTIONS,
  events: EVENTS,
  // 820-839; each names the rule that refused the movement.
  rejections: {
    transfer_frozen: 'the sending account (or the whole definition) is frozen for outgoing transfers',
    account_blacklisted: 'a blacklisted account (or definition) may neither send nor receive',
    transfer_cap_exceeded: 'the amount passes a per-transaction or per-period cap of the sender',
    not_on_allow_list: 'the definition has an allow list that does not name the account',
    on_deny_list: 'the definition deny list names the account',
  },
  weights: {
    SetTransferFreeze: row(30),
    SetTransferBlacklist: row(30),
    SetTransferListEntry: row(30),
    SetTransferCap: row(30),
  },
  schemaTypes: [AssetControlCodec, DefinitionControlCodec],
  tables: CONTROL_TABLES as unknown as readonly TableDef<never>[],
  docs: 'docs/controls.md',
});
