// The ledger modules installed in this process, as the executor sees them (docs/design/modules.md): the
// handlers of the instructions they claim, the work they run at the end of a block ("due work"), the
// authorities they refuse outright, the checks they run on every movement of value (transfer checks),
// what they refuse and drop when the core removes an entity their rows hang off (removal hooks), the
// parties their instructions name (the commit-time account index, pipeline/involved.ts) and the asset
// definitions and assets their instructions touch (the history's asset indexes, pipeline/touched.ts), and
// the names that stand in for ids (model/id-names.ts, read by the gateway through WorldState.idName),
// and the store of the runs the core itself schedules for later blocks (`ScheduledRuns`).
// The core names no module: the composition root (src/modules/registry.ts) installs every module once,
// before the first block executes, and the install checks that the instruction tag table
// (model/instructions.ts INSTRUCTION_KINDS) and the handlers match one to one. Due work runs in the
// order the modules are installed, which the registry fixes (its list, never a map's insertion order).

import type { DataEvent } from '../model/events.js';
import type { IdName, IdNameWords, NamedIdKind } from '../model/id-names.js';
import { INSTRUCTION_KINDS, type Instruction, type InstructionKind } from '../model/instructions.js';
import { assert } from '../util/assert.js';
import type { ExecContext, Fail, HandlerTable, InstructionOf } from './exec-context.js';
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

/**
 * Refuses a transaction by its authority before any instruction runs (after the authority is found to
 * exist): e.g. an account that acts only through the module's own instructions. Read-only.
 */
export type AuthorityCheck = (view: StateView, authority: string) => Fail | undefined;

/**
 * A movement of value (exec-value.ts `moveValue`): `from` is debited, `to` credited (a mint has no
 * `from`, a burn no `to`).
 */
export interface Movement {
  readonly definition: string;
  readonly scale: number;
  readonly from?: string | undefined;
  readonly to?: string | undefined;
  /** Mantissa at `scale`, > 0. */
  readonly amount: bigint;
}

/** What a transfer check writes once the movement's balances are applied (its own rows). */
export type TransferFollowUp = (x: ExecContext) => void;

/**
 * A module's check of every movement of value, run by `moveValue` before funds are checked: a Fail
 * refuses the movement (the first installed check that fails wins, in registry order); a follow-up is
 * run after the balances are applied, in registry order; undefined lets the movement through untouched.
 */
export type TransferCheck = (x: ExecContext, m: Movement) => Fail | TransferFollowUp | undefined;

/** An entity an Unregister* instruction removes, whose dependent rows go with it. */
export interface RemovedEntity {
  readonly kind: 'domain' | 'account' | 'assetDefinition';
  readonly id: string;
}

/**
 * A module's part of a removal cascade (UnregisterDomain, UnregisterAccount, UnregisterAssetDefinition),
 * run in registry order by the Unregister* handlers at the point of the cascade where the feature's rows
 * always went.
 */
export interface RemovalHook {
  /** Why the entity cannot go while the module still needs it (after permission, before any removal). */
  readonly refuse?: (x: ExecContext, removed: RemovedEntity) => Fail | undefined;
  /** Removes the module's rows that hang off the entity (with their data events), in sorted id order. */
  readonly drop?: (x: ExecContext, removed: RemovedEntity) => void;
}

/** The parties of any instruction, for a module's instruction that nests others. */
export type PartiesOf = (ins: Instruction) => string[];

/** The accounts each of a module's instructions names as parties (the commit-time account index, pipeline/involved.ts). */
export type InstructionParties = {
  readonly [K in InstructionKind]?: (ins: InstructionOf<K>, partiesOf: PartiesOf) => string[];
};

/** Records what an instruction touches: an asset definition, or one holder's asset (and its definition). */
export interface TouchSink {
  definition(id: string): void;
  asset(definition: string, account: string): void;
}

/**
 * The asset definitions and assets an instruction of the module touches (the history's definition and
 * asset indexes, pipeline/touched.ts); instructions of other modules are ignored.
 */
export type TouchedBy = (ins: Instruction, touch: TouchSink) => void;

/**
 * A module's names that stand in for ids (model/id-names.ts): read from its tables in a committed state,
 * for the gateway (WorldState.idName). Reads only; what a name names at a block time is deterministic.
 */
export interface IdNaming {
  /** `text` read as one of the module's names of `kind` in `state`; undefined when it has not their form. */
  name(state: WorldState, kind: NamedIdKind, text: string): IdName | undefined;
  /** How its names of each kind look, for a 400 that lists the accepted forms. */
  readonly forms: Readonly<Record<NamedIdKind, string>>;
  /** How route descriptions word its names (gateway/id-name-words.ts). */
  readonly words?: IdNameWords;
}

/** A run the core schedules: `instructions` run as `authority` in the first block at or after `timeMs`. */
export interface ScheduledRun {
  /** A ledger-made id (it begins with `$`, so no account can register or remove the run itself). */
  readonly id: string;
  readonly authority: string;
  readonly timeMs: number;
  readonly instructions: Instruction[];
}

/**
 * Where the core schedules instructions for a later block (the billing of a standing payment): the
 * store of the one installed module that runs scheduled instructions as its due work. Its run sees
 * `ExecContext.dueItem` equal to the run's id.
 */
export interface ScheduledRuns {
  /** Stores the run, or moves it when one with its id is stored (its run count is kept). */
  schedule(x: ExecContext, run: ScheduledRun): void;
  /** Removes the run; false when there is none. */
  cancel(x: ExecContext, id: string): boolean;
  /** Why `label` cannot stand in a scheduled run's id (undefined when it can), phrased for "an id". */
  labelProblem(label: string): string | undefined;
}

/**
 * What a module that schedules runs (through ScheduledRuns) says of them to the store: the message of
 * the store's refusal to let an account remove a ledger-made (`$`) run by hand. The message is in the
 * committed result (consensus data): a module never rewords it.
 */
export interface ScheduledRunMaker {
  removalRefused(id: string): string;
  /**
   * The beginning of every id of its runs (e.g. `$abc:`). At most one installed maker goes without: it
   * words the refusal for every `$` id no other maker's prefix claims.
   */
  readonly prefix?: string;
}

/** What one module gives the executor. */
export interface ExecutorModule {
  readonly name: string;
  readonly handlers: Readonly<Partial<HandlerTable>>;
  readonly dueWork?: DueWork;
  readonly authorityCheck?: AuthorityCheck;
  readonly transferCheck?: TransferCheck;
  readonly removal?: RemovalHook;
  readonly parties?: InstructionParties;
  readonly touches?: TouchedBy;
  readonly idNaming?: IdNaming;
  readonly scheduledRuns?: ScheduledRuns;
  readonly scheduledRunMaker?: ScheduledRunMaker;
}

interface Installed {
  readonly names: readonly string[];
  readonly handlers: HandlerTable;
  readonly dueWork: readonly DueWork[];
  readonly authorityChecks: readonly AuthorityCheck[];
  readonly transferChecks: readonly TransferCheck[];
  readonly removalHooks: readonly RemovalHook[];
  readonly parties: InstructionParties;
  readonly touches: readonly TouchedBy[];
  readonly idNamings: readonly IdNaming[];
  readonly scheduledRuns: ScheduledRuns | undefined;
  readonly scheduledRunMakers: readonly ScheduledRunMaker[];
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
  const parties: Partial<Record<InstructionKind, unknown>> = {};
  for (const m of modules)
    for (const kind of Object.keys(m.parties ?? {}).sort()) {
      assert(
        m.handlers[kind as InstructionKind] !== undefined,
        `${m.name} names parties of ${kind}, not its own`,
      );
      parties[kind as InstructionKind] = m.parties![kind as InstructionKind];
    }
  const schedulers = modules.flatMap((m) => (m.scheduledRuns === undefined ? [] : [m.scheduledRuns]));
  assert(schedulers.length <= 1, 'more than one ledger module stores scheduled runs');
  const makers = modules.flatMap((m) => (m.scheduledRunMaker === undefined ? [] : [m.scheduledRunMaker]));
  assert(
    makers.filter((m) => m.prefix === undefined).length <= 1,
    'more than one ledger module makes scheduled runs without an id prefix',
  );
  installed = Object.freeze({
    names,
    handlers: Object.freeze(handlers) as unknown as HandlerTable,
    dueWork: modules.flatMap((m) => (m.dueWork === undefined ? [] : [m.dueWork])),
    authorityChecks: modules.flatMap((m) => (m.authorityCheck === undefined ? [] : [m.authorityCheck])),
    transferChecks: modules.flatMap((m) => (m.transferCheck === undefined ? [] : [m.transferCheck])),
    removalHooks: modules.flatMap((m) => (m.removal === undefined ? [] : [m.removal])),
    parties: Object.freeze(parties) as InstructionParties,
    touches: modules.flatMap((m) => (m.touches === undefined ? [] : [m.touches])),
    idNamings: modules.flatMap((m) => (m.idNaming === undefined ? [] : [m.idNaming])),
    scheduledRuns: schedulers[0],
    scheduledRunMakers: makers,
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

/** The installed store of scheduled runs (the core schedules work only when a module stores it). */
export function installedScheduledRuns(): ScheduledRuns {
  const runs = current().scheduledRuns;
  assert(runs !== undefined, 'no installed ledger module stores scheduled runs');
  return runs;
}

/**
 * The refusal message for removing the ledger-made run `id` by hand, as the module that makes such runs
 * words it (the one whose prefix begins `id`, else the one without a prefix); undefined when none does.
 */
export function scheduledRunRefusal(id: string): string | undefined {
  const makers = current().scheduledRunMakers;
  const maker =
    makers.find((m) => m.prefix !== undefined && id.startsWith(m.prefix)) ??
    makers.find((m) => m.prefix === undefined);
  return maker?.removalRefused(id);
}

/** The installed modules' due work, in registry order. */
export function installedDueWork(): readonly DueWork[] {
  return current().dueWork;
}

/** The first installed module's refusal of a transaction by `authority`, in registry order, or undefined. */
export function authorityRefusal(view: StateView, authority: string): Fail | undefined {
  for (const check of current().authorityChecks) {
    const refused = check(view, authority);
    if (refused !== undefined) return refused;
  }
  return undefined;
}

/** The installed modules' transfer checks, in registry order (exec-value.ts `moveValue` runs them). */
export function installedTransferChecks(): readonly TransferCheck[] {
  return current().transferChecks;
}

/** The first installed module's refusal to let `removed` go, in registry order, or undefined. */
export function removalRefusal(x: ExecContext, removed: RemovedEntity): Fail | undefined {
  for (const hook of current().removalHooks) {
    const refused = hook.refuse?.(x, removed);
    if (refused !== undefined) return refused;
  }
  return undefined;
}

/** Drops the installed modules' rows hanging off `removed`, in registry order. */
export function removeDependents(x: ExecContext, removed: RemovedEntity): void {
  for (const hook of current().removalHooks) hook.drop?.(x, removed);
}

/** The parties a module's instruction names (undefined for an instruction no module names parties of). */
export function moduleParties(ins: Instruction, partiesOf: PartiesOf): string[] | undefined {
  const f = current().parties[ins.kind] as ((i: Instruction, of: PartiesOf) => string[]) | undefined;
  return f?.(ins, partiesOf);
}

/** The installed modules' touched-asset declarations, in registry order (pipeline/touched.ts). */
export function installedTouches(): readonly TouchedBy[] {
  return current().touches;
}

/** The installed modules' namings, in registry order; none before the modules are installed. */
export function installedIdNamings(): readonly IdNaming[] {
  return installed?.idNamings ?? [];
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
