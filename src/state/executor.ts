// Deterministic block execution (docs/design/paths.md). Transactions apply
// to a scratch view of the committed state; each is atomic (an undo journal rolls back every write of a
// rejected one). The base is untouched until commit(), so readers keep seeing the committed state while a
// block is built, and a block that is never committed leaves no trace. No wall clock, no randomness:
// time and height come from the BlockContext, and everything persisted or hashed is sorted by key.

import type { TransactionResult } from '../model/block.js';
import type { DataEvent } from '../model/events.js';
import { parseAccountId } from '../model/ids.js';
import type { Instruction } from '../model/instructions.js';
import { reject } from '../model/rejections.js';
import type { SignedTransaction } from '../model/transaction.js';
import { ownWeight, TRANSACTION_BASE_WEIGHT } from '../model/weights.js';
import { assert } from '../util/assert.js';
import { deepCopy } from './copy.js';
import {
  type BlockContext,
  type ExecContext,
  type Fail,
  fail,
  type Handler,
  RUN_AS_DEPTH_MAX,
} from './exec-context.js';
import { stateRootVersion } from './merkle/hash.js';
import type { TreeUpdate, TreeWrite } from './merkle/tree.js';
import {
  authorityRefusal,
  type DueRun,
  type DueWorkPorts,
  installedDueWork,
  installedHandlers,
} from './module-host.js';
import type { ProofVerdicts } from './proof-verdicts.js';
import { publishRoot } from './root.js';
import { type RowChange, StateView, type StateViews } from './state-view.js';
import type { BaseTable } from './table.js';
import type { WorldState } from './world-state.js';

export type { BlockContext } from './exec-context.js';
export type { DueRun } from './module-host.js';

export interface BlockExecutionOptions {
  /**
   * Proof verdicts computed off the execution path (proof-verdicts.ts): a pure function of each proof's
   * claim, so they change how fast the block runs, never its results or its state root.
   */
  proofs?: ProofVerdicts | undefined;
}

export interface ApplyOutcome {
  result: TransactionResult;
  events: DataEvent[];
}

export class BlockExecution {
  private readonly view: StateView;
  private readonly baseVersion: number;
  private prepared: Prepared | undefined;
  private committed = false;
  /** The weight this block has run so far: its transactions' metered weights, then its due work's. */
  private weightUsed = 0;

  constructor(
    private readonly base: WorldState,
    private readonly ctx: Readonly<BlockContext>,
    private readonly options: BlockExecutionOptions = {},
  ) {
    assert(!ctx.genesis || ctx.height === 1, 'only height 1 can be the genesis block');
    assert(Number.isSafeInteger(ctx.height) && ctx.height >= 1, 'block height must be a positive integer');
    installedHandlers(); // asserts, before any work, that the ledger modules are installed
    this.view = new StateView(base);
    this.baseVersion = base.version;
  }

  /**
   * Applies one transaction (signatures were checked at admission); rejection leaves no trace. `txHash`
   * identifies the transaction to the caller's bookkeeping; execution itself does not depend on it.
   */
  apply(tx: SignedTransaction, txHash: Uint8Array): ApplyOutcome {
    assert(!this.committed, 'block execution already committed');
    assert(txHash.length === 32, 'transaction hash must be 32 bytes');
    this.prepared = undefined;
    const authority = tx.payload.authority;
    if (!this.ctx.genesis && !this.view.t.account.has(authority)) {
      return {
        result: { kind: 'Rejected', reason: reject('authority_not_found', `no account ${authority}`) },
        events: [],
      };
    }
    // An authority a module refuses outright (module-host.ts), e.g. an account that acts only through
    // the module's own instructions.
    const refused = authorityRefusal(this.view, authority);
    if (refused !== undefined) {
      const reason = reject(refused.code, refused.message);
      return { result: { kind: 'Rejected', reason }, events: [] };
    }
    const mark = this.view.journal.mark();
    assert(mark === 0, `transaction applied with ${mark} undo entries of an earlier one still open`);
    const x = new TxContext(this.view, this.ctx, authority, 0, this.newMeter(), this.options.proofs);
    try {
      if (this.ctx.genesis) this.recordGenesisDomain(authority);
      const instructions = tx.payload.instructions;
      for (let i = 0; i < instructions.length; i++) {
        const failed = runInstruction(x, instructions[i]!);
        if (failed !== undefined) {
          this.view.journal.rollback(mark);
          this.weightUsed += x.meter.used;
          return {
            result: { kind: 'Rejected', reason: reject(failed.code, clip(failed.message), i) },
            events: [],
          };
        }
      }
    } catch (e) {
      // A bug (failed assertion) must not leave half a transaction in the view: undo, then let it stop us.
      this.view.journal.rollback(mark);
      throw e;
    }
    this.view.journal.release(mark);
    // Every instruction was charged before it ran and refused past the cap (a nested proposal's batch
    // over it refuses the approving transaction): a kept transaction never ran more than it was allowed.
    assert(
      x.meter.used >= TRANSACTION_BASE_WEIGHT && x.meter.used <= x.meter.cap,
      `transaction kept with metered weight ${x.meter.used} outside [${TRANSACTION_BASE_WEIGHT}, ${x.meter.cap}]`,
    );
    this.weightUsed += x.meter.used;
    return { result: { kind: 'Committed' }, events: x.events };
  }

  /** The weight run so far in this block (docs/cost-model.md): transactions, then due work. */
  weight(): number {
    return this.weightUsed;
  }

  /**
   * A transaction's (or due work run's) weight meter: the cap is the TransactionMaxWeight in force when
   * it starts; genesis is not metered (it is the chain's configuration, applied once).
   */
  private newMeter(): Meter {
    const cap = this.ctx.genesis ? Number.POSITIVE_INFINITY : this.view.parameters().transactionMaxWeight;
    return { used: TRANSACTION_BASE_WEIGHT, cap };
  }

  /**
   * Runs the work the installed modules have due at this block's height and time (module-host.ts), after
   * its transactions and before stateRoot(), module by module in registry order: every peer, replay and
   * rebuild runs the same work in the same order.
   */
  runDueWork(): DueRun[] {
    assert(!this.committed, 'block execution already committed');
    if (this.ctx.genesis) return [];
    this.prepared = undefined;
    const blockMax = this.view.parameters().blockMaxWeight;
    const ports: DueWorkPorts = {
      context: (authority, id) =>
        new TxContext(this.view, this.ctx, authority, 0, this.newMeter(), this.options.proofs, id),
      run: (x, ins) => runInstruction(x as TxContext, ins),
      clip,
      fits: (weight) => this.weightUsed + weight <= blockMax,
      charge: (x) => {
        const used = (x as TxContext).meter.used;
        // A run is charged once, after its undo entries were released or rolled back.
        assert(
          this.view.journal.mark() === 0 && used >= TRANSACTION_BASE_WEIGHT,
          `due work run charged ${used} with ${this.view.journal.mark()} undo entries open`,
        );
        this.weightUsed += used;
      },
    };
    return installedDueWork().flatMap((w) => w.run(this.view, this.ctx.height, this.ctx.blockTimeMs, ports));
  }

  /** The state tree's root the base will have after commit(): the state root of header version 2. */
  stateRoot(): Uint8Array {
    return this.prepare().tree.stateRoot;
  }

  /** The multiset root the base will have after commit(): the state root of header version 1 (root.ts). */
  legacyStateRoot(): Uint8Array {
    return publishRoot(this.prepare().sum);
  }

  /** The post-state root of header version `version` (1: multiset, 2: state tree). */
  stateRootOfVersion(version: 1 | 2): Uint8Array {
    return version === 1 ? this.legacyStateRoot() : this.stateRoot();
  }

  /** The post-state root of the same kind as `headerRoot` (the root a header of its version must name). */
  stateRootLike(headerRoot: Uint8Array): Uint8Array {
    return this.stateRootOfVersion(stateRootVersion(headerRoot));
  }

  /**
   * The state tree's writes for this block (nodes, root record, stale index, pruned nodes), for the state
   * store's transaction of the same block. Not copies: the tree keeps these very bytes until the store
   * has them (and answers reads from them), so they are read-only. At a million rows a block writes
   * tens of thousands of them; a copy of each was a tenth of the bytes a commit allocates.
   */
  treeWrites(): readonly Readonly<TreeWrite>[] {
    const { tree } = this.prepare();
    return this.base.tree.storeWrites(tree);
  }

  /** The block's net writes, sorted by key (undefined value = delete), for StateStore.commit. */
  changes(): { key: Uint8Array; value: Uint8Array | undefined }[] {
    // Copies: the committed tables keep these bytes for the next block's diff (table.ts encoded()).
    return this.prepare().changes.map((c) => ({ key: c.key.slice(), value: c.after?.slice() }));
  }

  /** The rows this block overwrites or deletes, with their previous value bytes (proof pins keep them). */
  overwritten(): { key: Uint8Array; before: Uint8Array }[] {
    const out: { key: Uint8Array; before: Uint8Array }[] = [];
    for (const c of this.prepare().changes)
      if (c.before !== undefined) out.push({ key: c.key, before: c.before });
    return out;
  }

  /** Merges the scratch view into the base: rows, indexes, counters and root. */
  commit(): void {
    assert(!this.committed, 'block execution already committed');
    assert(this.base.version === this.baseVersion, 'block execution was prepared against an older state');
    const { changes, sum, tree } = this.prepare();
    const version = this.base.version;
    this.base.mergeWrites(
      this.baseVersion,
      (tables) => {
        for (const c of changes) {
          const table = tables[c.table] as BaseTable<unknown>;
          if (c.value === undefined) table.remove(c.id);
          else {
            const encoding = { row: c.value, key: c.key, bytes: c.after!, leaf: c.afterLeaf! };
            table.put(c.id, c.value, encoding);
          }
        }
      },
      sum,
      tree,
    );
    // The committed state is exactly the one whose roots the header took: one version on, same sum, same tree.
    assert(
      this.base.version === version + 1 &&
        this.base.rootSum === sum &&
        this.base.tree.version === tree.version,
      `state after commit is version ${this.base.version} (from ${version}) with another root accumulator or tree`,
    );
    this.committed = true;
  }

  private prepare(): Prepared {
    // Every transaction's and due work run's undo entries were released or rolled back: the overlay
    // holds only kept writes when its diff and root are taken.
    assert(
      this.view.journal.mark() === 0,
      `block ${this.ctx.height}: state diff taken with ${this.view.journal.mark()} undo entries open`,
    );
    if (this.prepared === undefined) {
      const changes = this.view.diff();
      const tree = this.base.tree.prepare(
        changes.map((c) => ({ key: c.key, value: c.after })),
        this.baseVersion + 1,
      );
      this.prepared = { changes, sum: this.view.sumAfter(changes), tree };
    }
    return this.prepared;
  }

  /** The genesis domain (reserved forever) is the authority's domain in block 1. */
  private recordGenesisDomain(authority: string): void {
    const meta = this.view.meta();
    const domain = parseAccountId(authority)?.domain;
    if (meta.genesisDomain === undefined && domain !== undefined)
      this.view.setMeta({ ...meta, genesisDomain: domain });
  }
}

/** A block's net diff and the roots it gives, computed once. */
interface Prepared {
  changes: RowChange[];
  sum: bigint;
  tree: TreeUpdate;
}

/** The weight a transaction (or due work run) has been charged, and its cap (docs/cost-model.md). */
interface Meter {
  used: number;
  readonly cap: number;
}

/** The ExecContext of one transaction: a class, so that emitting needs no closure per transaction. */
class TxContext implements ExecContext {
  readonly t: StateViews;
  readonly checkPermissions: boolean;
  readonly events: DataEvent[] = [];

  constructor(
    readonly view: StateView,
    readonly block: Readonly<BlockContext>,
    readonly authority: string,
    readonly runAsDepth: number,
    /** Shared by the transaction's nested batches (runAs): they count against the same cap. */
    readonly meter: Meter,
    readonly proofs: ProofVerdicts | undefined,
    readonly dueItem?: string,
  ) {
    this.t = view.t;
    this.checkPermissions = !block.genesis;
  }

  /** Events are copies: a subscriber must not be able to reach a row through an event. */
  emit(e: DataEvent): void {
    this.events.push(deepCopy(e));
  }

  runAs(authority: string, instructions: readonly Instruction[]): { fail: Fail; index: number } | undefined {
    // A handler that runs nested batches refuses one at its own nesting limit before it gets here.
    assert(
      this.runAsDepth < RUN_AS_DEPTH_MAX,
      `nested execution at depth ${this.runAsDepth} (limit ${RUN_AS_DEPTH_MAX})`,
    );
    const mark = this.view.journal.mark();
    const inner = new TxContext(
      this.view,
      this.block,
      authority,
      this.runAsDepth + 1,
      this.meter,
      this.proofs,
    );
    for (let i = 0; i < instructions.length; i++) {
      const failed = runInstruction(inner, instructions[i]!);
      if (failed !== undefined) {
        this.view.journal.rollback(mark);
        return { fail: failed, index: i };
      }
    }
    for (const e of inner.events) this.events.push(e);
    return undefined;
  }
}

/** Rejection messages are at most 1024 UTF-8 bytes on the wire (model/rejections.ts); ids can be long. */
export const REJECTION_MESSAGE_CHARS_MAX = 340;

function clip(message: string | undefined): string | undefined {
  if (message === undefined || message.length <= REJECTION_MESSAGE_CHARS_MAX) return message;
  // At most 3 UTF-8 bytes per UTF-16 unit; never end on half a surrogate pair.
  let cut = message.slice(0, REJECTION_MESSAGE_CHARS_MAX - 1);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/**
 * Charges the instruction's own weight before running it (a nested proposal's instructions are charged
 * as they run): past the cap it is refused, so a proposer that ignores the cap cannot slip work past it.
 */
function runInstruction(x: TxContext, ins: Instruction): Fail | undefined {
  const handler = installedHandlers()[ins.kind] as Handler<typeof ins.kind> | undefined;
  assert(handler !== undefined, `no handler for instruction ${String(ins.kind)}`);
  const meter = x.meter;
  const own = ownWeight(ins);
  // The meter only grows, by whole units: a negative or fractional weight would let work slip under the cap.
  assert(Number.isSafeInteger(own) && own >= 0, `instruction ${ins.kind} weighs ${own}`);
  meter.used += own;
  if (meter.used > meter.cap)
    return fail(
      'transaction_weight_exceeded',
      `weight ${meter.used} > TransactionMaxWeight ${meter.cap} at ${ins.kind}`,
    );
  return handler(x, ins as never);
}
