// The ledger modules installed in this process, as the executor sees them (docs/design/modules.md): the
// handlers of the instructions they claim, and the work they run at the end of a block ("due work").
// The core names no module: the composition root (src/modules/registry.ts) installs every module once,
// before the first block executes, and the install checks that the instruction tag table
// (model/instructions.ts INSTRUCTION_KINDS) and the handlers match one to one. Due work runs in the
// order the modules are installed, which the registry fixes (its list, never a map's insertion order).

import type { DataEvent } from '../model/events.js';
import type { IdName, NamedIdKind } from '../model/id-names.js';
import { INSTRUCTION_KINDS, type Instruction, type InstructionKind } from '../model/instructions.js';
import { assert } from '../util/assert.js';
import type { ExecContext, Fail, HandlerTable } from './exec-context.js';
import type { StateView } from './state-view.js';
import type { WorldState } from './world-state.js';

/** One unit of due work run in a block: its id, the pseudo transaction hash its events go under, its events. */
export interface DueRun {
  id: string;
  hash: Uint8Array;
  events: DataEvent[];
}

/** What the executor lends due work: contexts, the handler table, and the block's weight. */
export interface DueWorkPorts {
  /** A context running as `authority` for the due item `id`, with its own event list. */
  context(authority: string, id: string): ExecContext & { readonly events: DataEvent[] };
  /** Runs one instruction through the installed handlers (metered like a transaction's). */
  run(x: ExecContext, ins: Instruction): Fail | undefined;
  /** Rejection messages are clipped like a transaction's. */
  clip(message: string | undefined): string | undefined;
  /**
   * Whether a run of this weight still fits the block's weight. Due work lives on the share of
   * BlockMaxWeight the block builder keeps free of transactions (model/weights.ts transactionsShare).
   */
  fits(weight: number): boolean;
  /** Adds a finished run's metered weight to the block's. */
  charge(x: ExecContext): void;
}

/** Work a module runs after a block's transactions and before its state root (deterministic). */
export interface DueWork {
  /** Runs what is due at (height, timeMs), in the module's deterministic order. */
  run(view: StateView, height: number, timeMs: number, ports: DueWorkPorts): DueRun[];
  /**
   * The earliest block time at which work falls due in the committed state, or undefined. An idle
   * chain makes a block for it (consensus/due-wake.ts); work due by height never wakes a chain.
   */
  nextDueMs(state: WorldState): number | undefined;
}

/** A core entity whose unregistering takes with it what modules keep about it. */
export type RemovedEntity = 'domain' | 'account' | 'assetDefinition';

/**
 * What a module removes of its own when the core unregisters an entity (its rows naming the entity, with
 * their data events): run by the Unregister* handlers after their checks passed, before the entity's
 * row goes, in registry order. Each hook must visit rows in a deterministic order (sorted ids).
 */
export type EntityCleanup = Readonly<Partial<Record<RemovedEntity, (x: ExecContext, id: string) => void>>>;

/**
 * A module's names that stand in for ids (model/id-names.ts): read from its tables in a committed state,
 * for the gateway (WorldState.idName). Reads only; what a name names at a block time is deterministic.
 */
export interface IdNaming {
  /** `text` read as one of the module's names of `kind` in `state`; undefined when it has not their form. */
  name(state: WorldState, kind: NamedIdKind, text: string): IdName | undefined;
  /** How its names of each kind look, for a 400 that lists the accepted forms. */
  readonly forms: Readonly<Record<NamedIdKind, string>>;
}

/** What one module gives the executor. */
export interface ExecutorModule {
  readonly name: string;
  readonly handlers: Readonly<Partial<HandlerTable>>;
  readonly dueWork?: DueWork;
  readonly cleanup?: EntityCleanup;
  readonly idNaming?: IdNaming;
}

interface Installed {
  readonly names: readonly string[];
  readonly handlers: HandlerTable;
  readonly dueWork: readonly DueWork[];
  readonly cleanups: readonly EntityCleanup[];
  readonly idNamings: readonly IdNaming[];
}

let installed: Installed | undefined;

/**
 * Every instruction kind claimed by exactly one module, and no module claiming a kind the tag table
 * lacks: the problems, empty when the modules and the tag table match.
 */
export function claimProblems(
  modules: readonly ExecutorModule[],
  kinds: readonly string[] = INSTRUCTION_KINDS,
): string[] {
  const owner = new Map<string, string>();
  const problems: string[] = [];
  for (const m of modules)
    for (const kind of Object.keys(m.handlers).sort()) {
      const before = owner.get(kind);
      if (before !== undefined) problems.push(`${kind} is claimed by ${before} and ${m.name}`);
      else owner.set(kind, m.name);
      if (!kinds.includes(kind)) problems.push(`${m.name} claims ${kind}, which has no tag`);
    }
  for (const kind of kinds)
    if (!owner.has(kind)) problems.push(`${kind} (tag ${kinds.indexOf(kind)}) is claimed by no module`);
  return problems;
}

/** Installs the modules (once per process; installing the same list again is a no-op). */
export function installExecutorModules(modules: readonly ExecutorModule[]): void {
  const names = modules.map((m) => m.name);
  if (installed !== undefined) {
    assert(
      installed.names.join() === names.join(),
      `ledger modules already installed as ${installed.names.join(', ')}, not ${names.join(', ')}`,
    );
    return;
  }
  const problems = claimProblems(modules);
  assert(problems.length === 0, `ledger modules do not match the instruction tags: ${problems.join('; ')}`);
  const handlers: Partial<Record<InstructionKind, unknown>> = {};
  for (const kind of INSTRUCTION_KINDS)
    for (const m of modules) {
      const h = m.handlers[kind];
      if (h !== undefined) handlers[kind] = h;
    }
  installed = Object.freeze({
    names,
    handlers: Object.freeze(handlers) as unknown as HandlerTable,
    dueWork: modules.flatMap((m) => (m.dueWork === undefined ? [] : [m.dueWork])),
    cleanups: modules.flatMap((m) => (m.cleanup === undefined ? [] : [m.cleanup])),
    idNamings: modules.flatMap((m) => (m.idNaming === undefined ? [] : [m.idNaming])),
  });
}

function current(): Installed {
  assert(
    installed !== undefined,
    'no ledger modules installed: the composition root imports src/modules/registry.ts before executing blocks',
  );
  return installed;
}

/** The complete instruction → handler table of the installed modules. */
export function installedHandlers(): HandlerTable {
  return current().handlers;
}

/** The installed modules' due work, in registry order. */
export function installedDueWork(): readonly DueWork[] {
  return current().dueWork;
}

/** The installed modules' namings, in registry order; none before the modules are installed. */
export function installedIdNamings(): readonly IdNaming[] {
  return installed?.idNamings ?? [];
}

/** Runs the installed modules' cleanup of an unregistered entity (EntityCleanup), in registry order. */
export function runEntityCleanups(entity: RemovedEntity, x: ExecContext, id: string): void {
  for (const c of current().cleanups) c[entity]?.(x, id);
}

/** The earliest block time at which any installed module has work due, or undefined. */
export function nextDueWorkMs(state: WorldState): number | undefined {
  let at: number | undefined;
  for (const w of current().dueWork) {
    const t = w.nextDueMs(state);
    if (t !== undefined && (at === undefined || t < at)) at = t;
  }
  return at;
}
