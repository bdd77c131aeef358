// Poseidon Merkle trees, the same ones circuits/lib/merkle.circom proves membership in:
// node = Poseidon(left, right) over the BN254 scalar field, an empty leaf is 0, and a tree has a
// fixed depth (8 for a roster, 16 for the shielded pool). Everything here is deterministic and
// synchronous, so the executor can use it inside a block.
import { poseidon1 } from 'poseidon-lite/poseidon1';
import { poseidon2 } from 'poseidon-lite/poseidon2';
import { assert } from '../util/assert.js';

export { poseidon1, poseidon2 };

/** zeros up to the deepest depth asked for so far: constants, computed once per process. */
let zeroCache: readonly bigint[] = [0n];

/** The roots of empty subtrees: zeros[0] = 0 (an empty leaf), zeros[i+1] = H(zeros[i], zeros[i]). */
export function zeroHashes(depth: number): readonly bigint[] {
  assert(Number.isInteger(depth) && depth >= 1 && depth <= 32, 'tree depth in 1..32');
  if (zeroCache.length <= depth) {
    const zeros = [...zeroCache];
    for (let i = zeros.length - 1; i < depth; i++) zeros.push(poseidon2([zeros[i]!, zeros[i]!]));
    zeroCache = Object.freeze(zeros);
  }
  return zeroCache.slice(0, depth + 1);
}

/** A membership path: the sibling at each level and whether the running node is the right child. */
export interface MerklePath {
  readonly pathElements: readonly bigint[];
  readonly pathIndices: readonly (0 | 1)[];
}

/**
 * A tree over a list of leaves, every level kept so paths are cheap. Used for rosters (the
 * executor computes a call's root from its invited commitments) and by clients building proofs.
 */
export class PoseidonTree {
  readonly depth: number;
  private readonly zeros: readonly bigint[];
  /** levels[0] = leaves; levels[i] holds the non-empty nodes of level i. */
  private readonly levels: bigint[][];

  /** Builds the levels bottom-up: about 2n hashes for n leaves (not n × depth). */
  constructor(depth: number, leaves: readonly bigint[] = []) {
    this.depth = depth;
    this.zeros = zeroHashes(depth);
    assert(leaves.length <= 2 ** depth, 'tree is full');
    this.levels = [[...leaves]];
    for (let level = 0; level < depth; level++) {
      const below = this.levels[level]!;
      const above: bigint[] = [];
      for (let i = 0; i < below.length; i += 2)
        above.push(poseidon2([below[i]!, below[i + 1] ?? this.zeros[level]!]));
      this.levels.push(above);
    }
  }

  get size(): number {
    return this.levels[0]!.length;
  }

  get capacity(): number {
    return 2 ** this.depth;
  }

  /** Appends a leaf and updates the path above it; returns its index. */
  insert(leaf: bigint): number {
    const index = this.size;
    assert(index < this.capacity, 'tree is full');
    this.levels[0]!.push(leaf);
    let i = index;
    for (let level = 0; level < this.depth; level++) {
      const parent = i >> 1;
      const left = this.node(level, parent * 2);
      const right = this.node(level, parent * 2 + 1);
      this.levels[level + 1]![parent] = poseidon2([left, right]);
      i = parent;
    }
    return index;
  }

  root(): bigint {
    return this.node(this.depth, 0);
  }

  leaf(index: number): bigint | undefined {
    return this.levels[0]![index];
  }

  indexOf(leaf: bigint): number {
    return this.levels[0]!.indexOf(leaf);
  }

  path(index: number): MerklePath {
    assert(Number.isInteger(index) && index >= 0 && index < this.size, 'leaf index in the tree');
    const pathElements: bigint[] = [];
    const pathIndices: (0 | 1)[] = [];
    let i = index;
    for (let level = 0; level < this.depth; level++) {
      pathElements.push(this.node(level, i ^ 1));
      pathIndices.push((i & 1) as 0 | 1);
      i >>= 1;
    }
    return { pathElements, pathIndices };
  }

  private node(level: number, index: number): bigint {
    return this.levels[level]![index] ?? this.zeros[level]!;
  }
}

/** The root of a tree of `depth` holding `leaves` (at most 2^depth of them). */
export function merkleRoot(depth: number, leaves: readonly bigint[]): bigint {
  return new PoseidonTree(depth, leaves).root();
}

/** Recomputes a root from a leaf and its path (what the circuit does). */
export function rootFromPath(leaf: bigint, path: MerklePath): bigint {
  let node = leaf;
  for (let level = 0; level < path.pathElements.length; level++) {
    const sibling = path.pathElements[level]!;
    node = path.pathIndices[level] === 1 ? poseidon2([sibling, node]) : poseidon2([node, sibling]);
  }
  return node;
}

/**
 * An append-only tree kept as its frontier (the last left node of each level), what the node
 * stores for the shielded pool: O(depth) hashes per append and O(depth) storage, whatever the
 * number of leaves.
 */
export interface Frontier {
  readonly depth: number;
  readonly count: number;
  /** frontier[level] = the most recent left child at that level (0 before any). */
  readonly nodes: readonly bigint[];
  readonly root: bigint;
}

export function emptyFrontier(depth: number): Frontier {
  const zeros = zeroHashes(depth);
  return { depth, count: 0, nodes: zeros.slice(0, depth).map(() => 0n), root: zeros[depth]! };
}

/**
 * Appends a leaf, or returns undefined when the tree is full: `depth` hashes, the path from the new
 * leaf to the root (the empty subtrees' roots are cached constants).
 */
export function frontierAppend(f: Frontier, leaf: bigint, zeros = zeroHashes(f.depth)): Frontier | undefined {
  if (f.count >= 2 ** f.depth) return undefined;
  const nodes = [...f.nodes];
  let node = leaf;
  let i = f.count;
  for (let level = 0; level < f.depth; level++) {
    if ((i & 1) === 0) {
      nodes[level] = node;
      node = poseidon2([node, zeros[level]!]);
    } else {
      node = poseidon2([nodes[level]!, node]);
    }
    i >>= 1;
  }
  return { depth: f.depth, count: f.count + 1, nodes, root: node };
}
