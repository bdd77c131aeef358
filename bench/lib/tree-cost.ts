// The per-block cost of keeping the state tree against the version-1 multiset root, in the same run
// (bench/state-tree-cost.ts prints it; test/reliability/state-tree-cost.test.ts bounds the ratio): a state
// of `rows` balance rows, then blocks that each change `changes` of them. Per block, the tree's update
// (prepare + apply on an in-memory tree: key and value hashes, the changed paths' nodes) and the multiset
// update (old leaf out, new leaf in, per change) are timed over the same changes, alternating, best of
// `rounds` rounds of `blocks` blocks.

import { memoryTree } from '../../src/state/merkle/tree.js';
import { addLeaf, leafValue, publishRoot, subLeaf } from '../../src/state/root.js';

export interface TreeCostOptions {
  rows: number;
  changes?: number;
  blocks?: number;
  rounds?: number;
}

export interface TreeCost {
  rows: number;
  changes: number;
  /** Best mean per block over the rounds (ms). */
  treeMs: number;
  multisetMs: number;
  ratio: number;
}

const utf8 = new TextEncoder();
const keyOf = (i: number) => utf8.encode(`\u0004coin#scale#acct-${i}@scale`);
const balanceOf = (i: number, v: number) => utf8.encode(`balance ${i} ${v}`);

export function measureTreeCost(opts: TreeCostOptions): TreeCost {
  const { rows } = opts;
  const changes = opts.changes ?? 1024;
  const blocks = opts.blocks ?? 10;
  const rounds = opts.rounds ?? 5;
  const keys = Array.from({ length: rows }, (_, i) => keyOf(i));
  const values = keys.map((_, i) => balanceOf(i, 0));
  const tree = memoryTree();
  tree.apply(
    tree.prepare(
      keys.map((key, i) => ({ key, value: values[i]! })),
      1,
    ),
  );
  let sum = 0n;
  for (let i = 0; i < rows; i++) sum = addLeaf(sum, leafValue(keys[i]!, values[i]!));

  let version = 1;
  let round = 0;
  const blockChanges = (): number[] => {
    round++;
    const out = new Set<number>();
    for (let j = 0; out.size < changes; j++) out.add((round * 7919 + j * 104_729) % rows);
    return [...out];
  };
  const treeBlock = (ids: number[]): number => {
    const t0 = performance.now();
    const ch = ids.map((i) => ({ key: keys[i]!, value: balanceOf(i, round) }));
    tree.apply(tree.prepare(ch, ++version));
    tree.stateRoot();
    return performance.now() - t0;
  };
  const multisetBlock = (ids: number[]): number => {
    const t0 = performance.now();
    for (const i of ids) {
      const next = balanceOf(i, round);
      sum = addLeaf(subLeaf(sum, leafValue(keys[i]!, values[i]!)), leafValue(keys[i]!, next));
      values[i] = next;
    }
    publishRoot(sum);
    return performance.now() - t0;
  };

  let treeMs = Number.POSITIVE_INFINITY;
  let multisetMs = Number.POSITIVE_INFINITY;
  for (let r = 0; r < rounds; r++) {
    let tTree = 0;
    let tMulti = 0;
    for (let b = 0; b < blocks; b++) {
      const ids = blockChanges();
      tMulti += multisetBlock(ids);
      tTree += treeBlock(ids);
    }
    treeMs = Math.min(treeMs, tTree / blocks);
    multisetMs = Math.min(multisetMs, tMulti / blocks);
  }
  return { rows, changes, treeMs, multisetMs, ratio: treeMs / multisetMs };
}
