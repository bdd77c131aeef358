// A scratch overlay over one committed table (docs/design/architecture.md):
// writes land in `writes` (a value, or DELETED), reads fall through to the base. Every write is recorded
// in the shared undo journal so a rejected transaction can be rolled back exactly.

import { assert } from '../util/assert.js';
import type { BaseTable } from './table.js';
import type { IndexName } from './tables.js';

export const DELETED: unique symbol = Symbol('deleted');
type Slot<V> = V | typeof DELETED;

/** How to undo one write: put back the slot `id` had in `view` (or remove it when it had none). */
interface UndoEntry {
  readonly view: TableView<unknown>;
  readonly id: string;
  readonly had: boolean;
  readonly prev: unknown;
}

/**
 * The per-transaction undo journal shared by every table view of one block execution. Entries are plain
 * records, not closures: a block writes thousands of rows and each entry is garbage once the block ends.
 */
export class Journal {
  private readonly entries: UndoEntry[] = [];

  record(entry: UndoEntry): void {
    this.entries.push(entry);
  }

  mark(): number {
    return this.entries.length;
  }

  /** Undoes every write made since `mark`, newest first. */
  rollback(mark: number): void {
    assert(
      mark >= 0 && mark <= this.entries.length,
      `journal: rollback to ${mark} of ${this.entries.length}`,
    );
    while (this.entries.length > mark) {
      const e = this.entries.pop()!;
      e.view.restore(e.id, e.had, e.prev);
    }
  }

  /** Forgets the undo entries of a transaction that was kept. */
  release(mark: number): void {
    // A mark past the end would grow the journal with holes; a stale one would drop a caller's entries.
    assert(mark >= 0 && mark <= this.entries.length, `journal: release to ${mark} of ${this.entries.length}`);
    this.entries.length = mark;
  }
}

export class TableView<V> {
  readonly writes = new Map<string, Slot<V>>();
  /**
   * Rows whose index links were touched in this overlay, per (index, parent). Only ever grows: it is a
   * superset of the overlay's members and every lookup re-checks membership, so undo need not shrink it.
   */
  private readonly touched = new Map<string, Set<string>>();
  /** Ids already recorded in `touched` (only kept for tables whose links depend on the id alone). */
  private readonly touchedIds = new Set<string>();

  constructor(
    readonly base: BaseTable<V>,
    private readonly journal: Journal,
  ) {}

  get(id: string): V | undefined {
    const w = this.writes.get(id);
    if (w === DELETED) return undefined;
    return w ?? this.base.get(id);
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  set(id: string, v: V): void {
    this.touch(id, this.get(id));
    this.touch(id, v);
    this.write(id, v);
  }

  delete(id: string): void {
    const old = this.get(id);
    if (old === undefined) return;
    this.touch(id, old);
    this.write(id, DELETED);
  }

  /** Ids linked to `parent` in `index` as this overlay sees them, sorted (deterministic iteration). */
  children(index: IndexName, parent: string): string[] {
    const candidates = new Set<string>(this.base.childIds(index, parent));
    for (const id of this.touched.get(`${index}\u0000${parent}`) ?? []) candidates.add(id);
    const out: string[] = [];
    for (const id of candidates) {
      const v = this.get(id);
      if (v === undefined) continue;
      if (this.base.linksOf(id, v).some(([i, p]) => i === index && p === parent)) out.push(id);
    }
    return out.sort();
  }

  private touch(id: string, v: V | undefined): void {
    if (v === undefined) return;
    // Links fixed by the id: a committed row is already in the base's indexes, and an id touched once
    // is already in `touched`, so only the first write of a new id has anything to record.
    if (this.base.def.linksById === true) {
      if (this.base.get(id) !== undefined || this.touchedIds.has(id)) return;
      this.touchedIds.add(id);
    }
    for (const [index, parent] of this.base.linksOf(id, v)) {
      const k = `${index}\u0000${parent}`;
      let set = this.touched.get(k);
      if (set === undefined) {
        set = new Set();
        this.touched.set(k, set);
      }
      set.add(id);
    }
  }

  /** Undo of one write (Journal.rollback only). */
  restore(id: string, had: boolean, prev: unknown): void {
    if (had) this.writes.set(id, prev as Slot<V>);
    else this.writes.delete(id);
  }

  private write(id: string, slot: Slot<V>): void {
    const had = this.writes.has(id);
    const prev = this.writes.get(id);
    this.writes.set(id, slot);
    this.journal.record({ view: this as TableView<unknown>, id, had, prev });
  }
}
