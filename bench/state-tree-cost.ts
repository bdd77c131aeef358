// The per-block cost of keeping the state tree (docs/ledger-proofs.md), against the version-1 multiset
// root it replaced, in the same run (lib/tree-cost.ts): a state of `rows` balance rows (default 100,000),
// then blocks that each change 1,024 of them (512 transfers: two balances each), best of 5 rounds of 10
// blocks. The node computes both roots today (the multiset root checks old blocks), so this is what the
// tree adds to a block, not a switch the node has.
// Run: node --conditions=torana-source --import tsx bench/state-tree-cost.ts [rows]

import { measureTreeCost } from './lib/tree-cost.js';

const rows = Number(process.argv[2] ?? 100_000);
const c = measureTreeCost({ rows });
console.log(
  `${c.rows} rows, ${c.changes} changes per block: state tree ${c.treeMs.toFixed(2)} ms per block, ` +
    `multiset root ${c.multisetMs.toFixed(2)} ms per block, ratio ${c.ratio.toFixed(1)}`,
);
