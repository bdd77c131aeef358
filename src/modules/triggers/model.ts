// Time triggers (docs/triggers.md): instructions scheduled by block height or block time, run inside block
// execution with the authority that registered them. A trigger id is a label chosen by its registrant;
// ids beginning with `$` are made by the ledger itself (another module's scheduled runs) and cannot be
// registered or unregistered directly.

import type { Infer } from '../../codec/codec.js';
import { enumOf, option, struct } from '../../codec/compound.js';
import { string, varuint } from '../../codec/primitives.js';
import { hash } from '../../crypto/hash.js';
import { AccountId } from '../../model/ids.js';

export const TRIGGER_ID_BYTES_MAX = 128;
/** Instructions one trigger may carry. */
export const TRIGGER_INSTRUCTIONS_MAX = 64;
/** Default of the custom parameter `triggers_per_block_max`: triggers run per block, the rest next block. */
export const TRIGGERS_PER_BLOCK_DEFAULT = 64;
export const TRIGGERS_PER_BLOCK_PARAMETER = 'triggers_per_block_max';
/**
 * Triggers one account may hold (ledger-made `$` triggers not counted): the parameter
 * `TriggersPerAccountMax`, kept in the custom parameters under this id; RegisterTrigger beyond it is
 * refused with `trigger_limit`.
 */
export const TRIGGERS_PER_ACCOUNT_PARAMETER = 'triggers_per_account_max';
export const TRIGGERS_PER_ACCOUNT_DEFAULT = 16;
export const TRIGGERS_PER_ACCOUNT_CEILING = 1024;
/** Digits of the zero-padded due value in the due index (heights and milliseconds below 10^20). */
export const DUE_DIGITS = 20;

const LABEL = /^[a-z0-9][a-z0-9._-]{0,63}$/;

export const TriggerIdText = string(TRIGGER_ID_BYTES_MAX);

/** When a trigger is due: at a block height, or at the first block whose time is at or after timeMs. */
export const TriggerDueCodec = enumOf('TriggerDue', {
  Height: { height: varuint },
  Time: { timeMs: varuint },
});
export type TriggerDue = Infer<typeof TriggerDueCodec>;

/** How a trigger repeats after a run (absent: it runs once and is removed). */
export const TriggerRepeatCodec = enumOf('TriggerRepeat', {
  EveryBlocks: { blocks: varuint },
  EveryMs: { ms: varuint },
});
export type TriggerRepeat = Infer<typeof TriggerRepeatCodec>;

/** A due-index row (table 0x1a, keyed by `dueKey(due, trigger)`): which trigger falls due when. */
export const TriggerDueRowCodec = struct('TriggerDueRow', { trigger: TriggerIdText, due: TriggerDueCodec });
export type TriggerDueRow = Infer<typeof TriggerDueRowCodec>;

/** Why a trigger id is refused for RegisterTrigger; undefined when it is a valid label. */
export function triggerIdProblem(id: string): string | undefined {
  return LABEL.test(id) ? undefined : 'a trigger id is a label: 1..64 of [a-z0-9._-], from [a-z0-9]';
}

/** Whether the ledger made this trigger (a run another module scheduled through the ScheduledRuns port). */
export function isLedgerTrigger(id: string): boolean {
  return id.startsWith('$');
}

/** The due-index id: `h:` or `t:`, the zero-padded due value, `:`, the trigger id (sorts by due, id). */
export function dueKey(due: TriggerDue, id: string): string {
  const [prefix, value] = due.kind === 'Height' ? ['h', due.height] : ['t', due.timeMs];
  return `${prefix}:${String(value).padStart(DUE_DIGITS, '0')}:${id}`;
}

/** The due-index id range bound: every key of that kind due at or before `value` sorts below it. */
export function dueBound(kind: 'h' | 't', value: number): string {
  return `${kind}:${String(value).padStart(DUE_DIGITS, '0')};`;
}

/** The next due after a run at (height, timeMs), or undefined for a one-shot trigger. */
export function nextDue(
  due: TriggerDue,
  repeat: TriggerRepeat | undefined,
  height: number,
  timeMs: number,
): TriggerDue | undefined {
  if (repeat === undefined) return undefined;
  if (repeat.kind === 'EveryBlocks') return { kind: 'Height', height: height + repeat.blocks };
  // Keeps the schedule (no drift), skipping slots an idle chain missed instead of running them in a burst.
  const from = due.kind === 'Time' ? due.timeMs : timeMs;
  const behind = Math.max(0, Math.floor((timeMs - from) / repeat.ms) + 1);
  return { kind: 'Time', timeMs: from + behind * repeat.ms };
}

/** The stored trigger row (table 0x19); instructions are held encoded by the instruction codec. */
export const TriggerFields = {
  id: TriggerIdText,
  authority: AccountId,
  due: TriggerDueCodec,
  repeat: option(TriggerRepeatCodec),
  /** Runs so far (successful or failed). */
  runs: varuint,
  registeredHeight: varuint,
};

/**
 * The pseudo transaction hash under which a trigger run's events are announced: the hash of
 * `trigger-run:<height>:<id>` (a trigger runs at most once per block, so it is unique per run).
 */
export function triggerRunHash(height: number, id: string): Uint8Array {
  return hash(new TextEncoder().encode(`trigger-run:${height}:${id}`));
}
