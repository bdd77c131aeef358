// The scratch view a block executes against: one overlay per table over the committed WorldState, a
// shared undo journal, and the computation of the block's net row changes (sorted by key) from which
// both changes() and the post-state root are derived.

import { defaultParameters, type Parameters } from '../model/parameters.js';
import { assert } from '../util/assert.js';
import { bytesEqual, compareBytes } from '../util/hex.js';
import { SINGLETON_ID, type TableName } from './keys.js';
import { addLeaf, leafValue, subLeaf } from './root.js';
import type { BaseTable } from './table.js';
import { DELETED, Journal, TableView } from './table-view.js';
import { INITIAL_META, type RowOf, type StateMeta, tableNames } from './tables.js';
import type { WorldState } from './world-state.js';

export type StateViews = { readonly [N in TableName]: TableView<RowOf<N>> };

/** One row's net change over the block: the bytes before and after (undefined = absent). */
export interface RowChange {
  readonly table: TableName;
  readonly id: string;
  readonly key: Uint8Array;
  readonly before: Uint8Array | undefined;
  readonly after: Uint8Array | undefined;
  /** The state-root leaves (root.ts) of `before` and `after`. */
  readonly beforeLeaf: bigint | undefined;
  readonly afterLeaf: bigint | undefined;
  /** The new row value, undefined when the row is deleted. */
  readonly value: unknown;
}

export class StateView {
  readonly journal = new Journal();
  readonly t: StateViews;

  constructor(readonly base: WorldState) {
    const t: Partial<Record<TableName, TableView<unknown>>> = {};
    for (const name of tableNames())
      t[name] = new TableView(base.tables[name] as BaseTable<unknown>, this.journal);
    this.t = t as StateViews;
  }

  parameters(): Parameters {
    return this.t.parameters.get(SINGLETON_ID) ?? defaultParameters();
  }

  meta(): StateMeta {
    return this.t.meta.get(SINGLETON_ID) ?? INITIAL_META;
  }

  setMeta(m: StateMeta): void {
    this.t.meta.set(SINGLETON_ID, m);
  }

  /** Net row changes against the base, sorted by key; rows written back to their old bytes are omitted. */
  diff(): RowChange[] {
    const out: RowChange[] = [];
    for (const name of tableNames()) {
      const view = this.t[name] as TableView<unknown>;
      const base = view.base;
      for (const [id, slot] of view.writes) {
        const old = base.get(id);
        const prior = old === undefined ? undefined : base.encoded(id, old);
        const after = slot === DELETED ? undefined : base.encodeValue(slot);
        if (prior === undefined && after === undefined) continue;
        if (prior !== undefined && after !== undefined && bytesEqual(prior.bytes, after)) continue;
        const key = prior?.key ?? base.key(id);
        out.push({
          table: name,
          id,
          key,
          before: prior?.bytes,
          after,
          beforeLeaf: prior?.leaf,
          afterLeaf: after === undefined ? undefined : leafValue(key, after),
          value: slot === DELETED ? undefined : slot,
        });
      }
    }
    out.sort((a, b) => compareBytes(a.key, b.key));
    // Every row has its own persisted key (tables never share a key prefix): two changes to one key
    // would count twice in the root and leave the store with whichever was written last.
    for (let i = 1; i < out.length; i++)
      assert(
        compareBytes(out[i - 1]!.key, out[i]!.key) < 0,
        `state diff: two changes to one key (${out[i]!.id})`,
      );
    return out;
  }

  /** The root accumulator the base would have after applying `changes`. */
  sumAfter(changes: readonly RowChange[]): bigint {
    let sum = this.base.rootSum;
    for (const c of changes) {
      if (c.beforeLeaf !== undefined) sum = subLeaf(sum, c.beforeLeaf);
      if (c.afterLeaf !== undefined) sum = addLeaf(sum, c.afterLeaf);
    }
    return sum;
  }
}
