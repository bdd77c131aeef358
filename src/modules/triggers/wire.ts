// The triggers module's wire declarations (docs/triggers.md; docs/design/modules.md "Wire declarations"):
// its instruction and event variants, rejection meanings, the TriggersPerAccountMax parameter, weights,
// stored row types and tables. Their tags, numbers and ids are in model/tags.ts; importing this file
// (src/modules/registry.ts does) declares them into the core's codecs and tables.

import type { Codec } from '../../codec/codec.js';
import { lazy, option, seq } from '../../codec/compound.js';
import { varuint } from '../../codec/primitives.js';
import { AccountId } from '../../model/ids.js';
import { type Instruction, InstructionCodec } from '../../model/instructions.js';
import { RejectionCodec } from '../../model/rejections.js';
import { instructionWeight, row, sized } from '../../model/weights.js';
import { declareModuleWire } from '../../state/module-wire.js';
import { type TableDef, tableDef } from '../../state/tables.js';
import {
  dueKey,
  isLedgerTrigger,
  TRIGGER_INSTRUCTIONS_MAX,
  TRIGGERS_PER_ACCOUNT_CEILING,
  TRIGGERS_PER_ACCOUNT_DEFAULT,
  TRIGGERS_PER_ACCOUNT_PARAMETER,
  TriggerDueCodec,
  type TriggerDueRow,
  TriggerDueRowCodec,
  TriggerIdText,
  TriggerRepeatCodec,
  triggerIdProblem,
} from './model.js';
import { type Trigger, TriggerCodec } from './row.js';

/** An instruction inside a trigger (typed loosely: the enum refers to itself). */
const NestedInstruction: Codec<unknown> = lazy('TriggerInstruction', (): Codec<unknown> => InstructionCodec);

/**
 * A trigger's instructions are instructions of the same enum (recursive; the decoder's depth limit
 * bounds nesting).
 */
const INSTRUCTIONS = {
  RegisterTrigger: {
    id: TriggerIdText,
    due: TriggerDueCodec,
    repeat: option(TriggerRepeatCodec),
    instructions: seq(NestedInstruction, TRIGGER_INSTRUCTIONS_MAX),
  },
  UnregisterTrigger: { id: TriggerIdText },
};

/** Executed / Failed follow the data events of the run they report. */
const EVENTS = {
  TriggerRegistered: { id: TriggerIdText, authority: AccountId, due: TriggerDueCodec },
  TriggerUnregistered: { id: TriggerIdText },
  TriggerExecuted: { id: TriggerIdText, authority: AccountId, runs: varuint, next: option(TriggerDueCodec) },
  TriggerFailed: {
    id: TriggerIdText,
    authority: AccountId,
    runs: varuint,
    next: option(TriggerDueCodec),
    reason: RejectionCodec,
  },
};

/** The trigger parameter: a `{ value }` Parameter variant kept among the custom parameters. */
const PARAMETERS = {
  TriggersPerAccountMax: { value: varuint },
};

declare module '../../model/instructions.js' {
  interface InstructionVariants extends TriggerInstructionVariants {}
}
declare module '../../model/events.js' {
  interface DataEventVariants extends TriggerEventVariants {}
}
declare module '../../model/parameters.js' {
  interface ParameterVariants extends TriggerParameterVariants {}
}
declare module '../../state/tables.js' {
  interface TableRows {
    trigger: Trigger;
    triggerDue: TriggerDueRow;
  }
  interface IndexNames {
    /** Triggers by their authority. */
    triggersByAuthority: unknown;
  }
}
type TriggerInstructionVariants = typeof INSTRUCTIONS;
type TriggerEventVariants = typeof EVENTS;
type TriggerParameterVariants = typeof PARAMETERS;

export const TRIGGER_TABLES = [
  tableDef<Trigger>('trigger', TriggerCodec, {
    idOf: (v) => v.id,
    links: (_id, v) => [['triggersByAuthority', v.authority]],
    check: (id) => (isLedgerTrigger(id) ? undefined : triggerIdProblem(id)),
  }),
  tableDef<TriggerDueRow>('triggerDue', TriggerDueRowCodec, {
    idOf: (v) => dueKey(v.due, v.trigger),
    keepSorted: true,
  }),
] as const;

export const triggersWire = declareModuleWire({
  name: 'triggers',
  instructions: INSTRUCTIONS,
  events: EVENTS,
  rejections: {
    trigger_invalid: 'the trigger id, due time, repeat or instruction list is malformed',
    trigger_not_found: 'no such trigger',
    trigger_reserved: 'the trigger is made and managed by the ledger (a `$` run another module schedules)',
    trigger_repeat_too_fast: 'a time trigger repeats faster than the chain block time (BlockTimeMs)',
    trigger_limit: 'the authority holds TriggersPerAccountMax triggers already',
  },
  parameters: [
    {
      kind: 'TriggersPerAccountMax',
      key: TRIGGERS_PER_ACCOUNT_PARAMETER,
      default: TRIGGERS_PER_ACCOUNT_DEFAULT,
      min: 1,
      max: TRIGGERS_PER_ACCOUNT_CEILING,
      doc: 'triggers one account may hold (ledger-made `$` triggers not counted); beyond it RegisterTrigger is refused with trigger_limit',
    },
  ],
  weights: {
    // + the weight of its instructions: reserved at registration, so a trigger never runs more than a
    // transaction may.
    RegisterTrigger: {
      ...sized(40, 0.1),
      nested: '+ Σ weight(nested)',
      extra: (ins: Instruction) =>
        ins.kind === 'RegisterTrigger'
          ? ins.instructions.reduce<number>((w, inner) => w + instructionWeight(inner as Instruction), 0)
          : 0,
    },
    UnregisterTrigger: row(40),
  },
  schemaTypes: [TriggerCodec, TriggerDueRowCodec],
  tables: TRIGGER_TABLES as unknown as readonly TableDef<never>[],
  docs: 'docs/triggers.md',
});
