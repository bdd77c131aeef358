// The ledger's state tree over its state store (docs/design/state.md §Storage): nodes are read from the
// store's 0xFA key range, and a start that finds the root of the applied height there builds nothing.

import { stalePrefix } from '../state/merkle/nodes.js';
import {
  EMPTY_TREE_VERSION,
  type NodeReader,
  StateTree,
  type StateTreeOptions,
} from '../state/merkle/tree.js';
import type { StateBackend } from '../storage/block-store.js';
import { assert } from '../util/assert.js';

/** The state store as the tree's node reader. */
export function storeNodeReader(store: StateBackend): NodeReader {
  return {
    get: (key) => store.get(key),
    staleRecords: (version) => {
      // Stale records are filed under the version that made them stale: never a negative one.
      assert(
        Number.isSafeInteger(version) && version >= 0,
        `state tree: stale records of version ${version}`,
      );
      // The version's stale list (its key is the prefix itself) or, in a store written before the list
      // existed, one record per node.
      return store.entries(stalePrefix(version));
    },
  };
}

/**
 * The stored tree of `version`, or, when the store holds none (empty, or written before the state tree
 * existed), an empty tree over the store to build it on (`built: true`): its nodes then go to the store
 * with the next block's writes.
 */
export function openStoredTree(
  store: StateBackend,
  version: number,
  opts: Omit<StateTreeOptions, 'writeThrough'>,
): { tree: StateTree; built: boolean } {
  assert(
    Number.isSafeInteger(version) && version >= EMPTY_TREE_VERSION,
    `state tree: opening version ${version}`,
  );
  const reader = storeNodeReader(store);
  const stored = version < 0 ? undefined : StateTree.open(reader, version, opts);
  if (stored !== undefined) {
    // The stored root found is the one asked for, with nothing waiting to be written.
    assert(stored.version === version && stored.pendingCount() === 0, `state tree: opened ${stored.version}`);
    return { tree: stored, built: false };
  }
  const empty = new StateTree(reader, EMPTY_TREE_VERSION, undefined, opts);
  assert(empty.version === EMPTY_TREE_VERSION, 'state tree: a new tree is not empty');
  return { tree: empty, built: true };
}
