// The per-block cost of keeping the state tree (docs/ledger-proofs.md), against the version-1 multiset
// root it replaced, in the same run: a state of `rows` balance rows (default 100,000), then blocks that
// each change 1,024 of them (512 transfers: two balances each). Per block, the tree's update (prepare +
// apply on an in-memory tree: key and value hashes, the changed paths' nodes) and the multiset update
// (old leaf out, new leaf in, per change) are timed over the same changes, alternating, best of 5 rounds
// of 10 blocks. The node computes both roots today (the multiset root checks old blocks), so this is
// what the tree adds to a block, not a switch the node has.
// Run: node --conditions=torana-source --import tsx bench/state-tree-cost.ts [rows]

import { memoryTree } from '../src/state/merkle/tree.js';
import { addLeaf, leafValue, publishRoot, subLeaf } from '../src/state/root.js';

const rows = Number(process.argv[2] ?? 100_000);
const CHANGES = 1024;
const BLOCKS = 10;
const utf8 = new TextEncoder();
const keyOf = (i: number) => utf8.encode(`\u0004coin#scale#acct-${i}@scale`);
const balanceOf = (i: number, v: number) => utf8.encode(`balance ${i} ${v}`);

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
function blockChanges(): number[] {
  round++;
  const out = new Set<number>();
  for (let j = 0; out.size < CHANGES; j++) out.add((round * 7919 + j * 104_729) % rows);
  return [...out];
}

function treeBlock(ids: number[]): number {
  const t0 = performance.now();
  const changes = ids.map((i) => ({ key: keys[i]!, value: balanceOf(i, round) }));
  tree.apply(tree.prepare(changes, ++version));
  tree.stateRoot();
  return performance.now() - t0;
}

function multisetBlock(ids: number[]): number {
  const t0 = performance.now();
  for (const i of ids) {
    const next = balanceOf(i, round);
    sum = addLeaf(subLeaf(sum, leafValue(keys[i]!, values[i]!)), leafValue(keys[i]!, next));
    values[i] = next;
  }
  publishRoot(sum);
  return performance.now() - t0;
}

let bestTree = Number.POSITIVE_INFINITY;
let bestMultiset = Number.POSITIVE_INFINITY;
for (let r = 0; r < 5; r++) {
  let tTree = 0;
  let tMulti = 0;
  for (let b = 0; b < BLOCKS; b++) {
    const ids = blockChanges();
    tMulti += multisetBlock(ids);
    tTree += treeBlock(ids);
  }
  bestTree = Math.min(bestTree, tTree / BLOCKS);
  bestMultiset = Math.min(bestMultiset, tMulti / BLOCKS);
}
console.log(
  `${rows} rows, ${CHANGES} changes per block: state tree ${bestTree.toFixed(2)} ms per block, ` +
    `multiset root ${bestMultiset.toFixed(2)} ms per block, ratio ${(bestTree / bestMultiset).toFixed(1)}`,
);
