// What an instruction handler sees: the scratch view, the block context, the authority, and an event
// sink. Handlers return a Fail (the first failing check, in the fixed order README.md documents) or
// undefined after applying their writes; the executor turns a Fail into a Rejection and rolls back.

import type { DataEvent } from '../model/events.js';
import type { Instruction, InstructionKind } from '../model/instructions.js';
import type { RejectionCode } from '../model/rejections.js';
import type { ProofVerdicts } from './proof-verdicts.js';
import type { StateView, StateViews } from './state-view.js';

export interface BlockContext {
  height: number;
  blockTimeMs: number;
  chainId: string;
  /** Height 1: transactions skip permission checks and the authority need not exist yet. */
  genesis: boolean;
}

export interface Fail {
  readonly code: RejectionCode;
  readonly message?: string;
}

export interface ExecContext {
  readonly view: StateView;
  readonly t: StateViews;
  readonly block: Readonly<BlockContext>;
  readonly authority: string;
  /** False only for genesis transactions. */
  readonly checkPermissions: boolean;
  /** The id of the due work item (module-host.ts) whose instructions run; undefined in a transaction. */
  readonly dueItem?: string | undefined;
  emit(e: DataEvent): void;
  /**
   * Verdicts of Groth16 proofs computed off the execution path (proof-verdicts.ts), asked before a
   * proof is verified here; absent, or a verdict it does not hold, and execution verifies it itself.
   */
  readonly proofs?: ProofVerdicts | undefined;
  /** How many runAs batches enclose this context (0 for a transaction's own instructions). */
  readonly runAsDepth: number;
  /**
   * Runs `instructions` as `authority` inside this transaction through the normal handlers (e.g. an
   * approved batch a module runs as the account it acts for), at most RUN_AS_DEPTH_MAX deep: a handler
   * refuses a batch at its own limit before calling this. Atomic: on a failure every write and event of
   * the batch is undone and the failure is returned with the index of the failing instruction.
   */
  runAs(authority: string, instructions: readonly Instruction[]): { fail: Fail; index: number } | undefined;
}

/** How deep runAs batches may nest in one transaction (a handler's own limit must not exceed it). */
export const RUN_AS_DEPTH_MAX = 4;

export type InstructionOf<K extends InstructionKind> = Extract<Instruction, { kind: K }>;
export type Handler<K extends InstructionKind> = (x: ExecContext, ins: InstructionOf<K>) => Fail | undefined;
export type HandlerTable = { readonly [K in InstructionKind]: Handler<K> };

export function fail(code: RejectionCode, message?: string): Fail {
  return message === undefined ? { code } : { code, message };
}
