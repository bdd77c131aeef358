// The imported genesis state of a file, opened as the world state block 1 executes on: what
// `torana verify --genesis-import <file>` and the indexer's `--genesis-import <file>` start from instead of
// an empty state (docs/operations.md "Verifying an imported chain"). The file is imported again, by the
// same code a node's `torana genesis import` ran, into a scratch state store; the state is read from
// there (rows on disk, a bounded row cache, the bulk-built tree of version 0), so a large import does not
// have to fit in the heap. Nothing about the file is trusted: block 1's re-execution on this state must
// reproduce block 1's header, state root included, so a file other than the one the chain imported is
// refused at block 1.

import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { openStoredTree } from '../pipeline/state-tree-store.js';
import {
  decodeCount,
  decodeIndexMeta,
  STATE_INDEX_META_KEY,
  tableCountKey,
} from '../state/state-index-keys.js';
import { TABLES, tableNames } from '../state/tables.js';
import { WorldState } from '../state/world-state.js';
import { StateStore } from '../storage/state-store.js';
import { assert } from '../util/assert.js';
import { toHex } from '../util/hex.js';
import { fileLineBatches, type GenesisImportReport, importGenesisState } from './genesis-import.js';

/** Decoded rows the imported state keeps in the heap while blocks execute on it. */
const IMPORTED_ROW_CACHE_ROWS = 100_000;

export interface ImportedState {
  /** The state before block 1 (version 0). */
  state: WorldState;
  report: GenesisImportReport;
  /** Closes the scratch store and removes it. */
  close(): Promise<void>;
}

/**
 * Imports `file` (as the genesis transaction's `authority` would have) into a new scratch directory under
 * `scratchDir` and opens the result. Throws what the import throws (`genesis_import_invalid`, naming the
 * line) with the scratch directory removed.
 */
export async function openImportedState(
  file: string,
  opts: { authority: string; scratchDir: string },
): Promise<ImportedState> {
  const dir = await mkdtemp(join(opts.scratchDir, 'torana-genesis-import-'));
  let store: StateStore | undefined;
  try {
    store = await StateStore.open(dir, { fsync: false });
    const report = await importGenesisState(store, fileLineBatches(file), {
      authority: opts.authority,
      scratchDir: dir,
    });
    const meta = decodeIndexMeta(store.get(STATE_INDEX_META_KEY));
    assert(meta !== undefined, 'imported state: no accumulator written');
    const counts = new Map<number, number>();
    for (const name of tableNames()) {
      const tag = TABLES[name].tag;
      const bytes = store.get(tableCountKey(tag));
      counts.set(tag, bytes === undefined ? 0 : decodeCount(bytes)!);
    }
    const { tree, built } = openStoredTree(store, 0, {});
    assert(!built, 'imported state: no state tree of version 0');
    const state = WorldState.onDisk(store, {
      version: 0,
      sum: meta.sum,
      count: (tag) => counts.get(tag) ?? 0,
      cacheRows: IMPORTED_ROW_CACHE_ROWS,
      tree,
    });
    assert(toHex(state.stateRoot()) === report.stateRoot, 'imported state: opened with another root');
    const opened = store;
    store = undefined;
    return {
      state,
      report,
      close: async () => {
        await opened.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  } finally {
    if (store !== undefined) {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  }
}
