// The state tree of a set of rows built bottom-up in one pass over their leaves sorted by key hash
// (docs/design/state.md "Bulk build"): what a bulk genesis import writes instead of one update over every
// row. Each leaf is read once and every node is written once, under one version, with exactly the key,
// bytes and shape StateTree.prepare gives the same rows (tree.ts): a subtree holding one key is that key's
// leaf, placed at the depth where it is alone; two or more keys an internal node, with a chain of
// one-child internal nodes down to the depth where they split. Memory: a stack of at most 256 open
// subtrees (one per bit), whatever the number of leaves.
//
// The nodes of one depth are handed out in key order (their paths ascend): a left subtree is placed
// below its split as soon as it is complete, before any node to its right is written. So a bulk load
// can write the nodes in store key order (depth, then path) from one append-only spool per depth,
// without sorting them (node-spool.ts).

import { assert } from '../../util/assert.js';
import { compareBytes } from '../../util/hex.js';
import {
  bitAt,
  EMPTY_SUBTREE,
  internalHash,
  leafHash,
  stateRootOf,
  TREE_DEPTH_MAX,
  TREE_HASH_BYTES,
} from './hash.js';
import { type Child, encodeNode, encodeRef, type NodeRef, nodeKey, rootKey } from './nodes.js';

export interface SortedLeaf {
  /** The key hash (strictly increasing from one leaf to the next). */
  kh: Uint8Array;
  valueHash: Uint8Array;
}

/** One subtree built so far: a leaf not placed yet, or an internal node written at its split depth. */
type Built =
  | { kind: 'leaf'; kh: Uint8Array; vh: Uint8Array; hash: Uint8Array }
  | { kind: 'internal'; depth: number; kh: Uint8Array; hash: Uint8Array };

/** The first bit where `a` and `b` differ (they must differ). */
function splitBit(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < TREE_HASH_BYTES; i++) {
    const x = a[i]! ^ b[i]!;
    if (x !== 0) return i * 8 + Math.clz32(x) - 24;
  }
  return TREE_DEPTH_MAX;
}

export interface SortedBuildResult {
  root: Child;
  /** The header's (version 2) state root. */
  stateRoot: Uint8Array;
  leaves: number;
  /** Nodes written (leaves, internal nodes, and the root record). */
  writes: number;
}

/** A key hash out of order (or twice): the input was not sorted, or two rows share a key. */
export class SortedBuildError extends Error {
  override readonly name = 'SortedBuildError';
}

/**
 * Builds the tree of leaves added in key-hash order as `version`, handing each node and, at finish(),
 * the root record to `write` once. Leaves may come in chunks with other work between (a store write):
 * the builder keeps only its stack. The store must hold no other node of that version.
 */
export class SortedTreeBuilder {
  /**
   * The open left subtrees, each already placed below its split depth and waiting for its right
   * sibling there (split depths increasing upwards); `kh` is a key hash of the left subtree (its path).
   */
  private readonly stack: { split: number; left: NodeRef; kh: Uint8Array }[] = [];
  private prev: Built | undefined;
  private n = 0;
  private written = 0;
  private done = false;

  constructor(
    private readonly version: number,
    private readonly write: (key: Uint8Array, value: Uint8Array) => void,
  ) {}

  /** The next leaf: its key hash must be above the previous one's. */
  add(leaf: SortedLeaf): void {
    assert(!this.done, 'sorted build: a leaf added after finish');
    assert(
      leaf.kh.length === TREE_HASH_BYTES && leaf.valueHash.length === TREE_HASH_BYTES,
      'sorted build: a leaf hash of the wrong size',
    );
    const kh = new Uint8Array(leaf.kh); // a copy (the leaf's bytes are a view valid for this call)
    const vh = new Uint8Array(leaf.valueHash);
    const prev = this.prev;
    if (prev !== undefined) {
      if (compareBytes(prev.kh, kh) >= 0)
        throw new SortedBuildError(
          `sorted build: leaf ${this.n} is not after leaf ${this.n - 1} by key hash`,
        );
      const s = splitBit(prev.kh, kh);
      let cur = prev;
      while (this.stack.length > 0 && this.stack[this.stack.length - 1]!.split > s) cur = this.join(cur);
      // Complete: every later leaf is right of it. Placed now, so each depth's nodes come out in order.
      this.stack.push({ split: s, left: this.place(cur, s + 1), kh: cur.kh });
    }
    this.prev = { kind: 'leaf', kh, vh, hash: leafHash(kh, vh) };
    this.n++;
  }

  /** Closes every open subtree and writes the root record. */
  finish(): SortedBuildResult {
    assert(!this.done, 'sorted build: finished twice');
    this.done = true;
    let root: Child;
    if (this.prev !== undefined) {
      let cur = this.prev;
      while (this.stack.length > 0) cur = this.join(cur);
      root = this.place(cur, 0);
    }
    this.put(rootKey(this.version), encodeRef(root));
    return {
      root,
      stateRoot: stateRootOf(root?.hash ?? EMPTY_SUBTREE),
      leaves: this.n,
      writes: this.written,
    };
  }

  private put(key: Uint8Array, value: Uint8Array): void {
    this.written++;
    this.write(key, value);
  }

  /** The reference of `b` placed at depth `d`: a leaf is written there, an internal node lifted by a chain. */
  private place(b: Built, d: number): NodeRef {
    const version = this.version;
    if (b.kind === 'leaf') {
      this.put(nodeKey(version, d, b.kh), encodeNode({ kind: 'leaf', keyHash: b.kh, valueHash: b.vh }));
      return { kind: 'leaf', version, hash: b.hash };
    }
    assert(b.depth >= d, `sorted build: an internal node at ${b.depth} placed at ${d}`);
    let ref: NodeRef = { kind: 'internal', version, hash: b.hash };
    for (let x = b.depth - 1; x >= d; x--) {
      const right = bitAt(b.kh, x) === 1;
      const node = right
        ? { kind: 'internal' as const, left: undefined, right: ref }
        : { kind: 'internal' as const, left: ref, right: undefined };
      const hash = right ? internalHash(EMPTY_SUBTREE, ref.hash) : internalHash(ref.hash, EMPTY_SUBTREE);
      this.put(nodeKey(version, x, b.kh), encodeNode(node));
      ref = { kind: 'internal', version, hash };
    }
    return ref;
  }

  /** The internal node over the top open left subtree (bit = 0 at its split) and `r` (bit = 1). */
  private join(r: Built): Built {
    const { split: s, left, kh } = this.stack.pop()!;
    const right = this.place(r, s + 1);
    this.put(nodeKey(this.version, s, kh), encodeNode({ kind: 'internal', left, right }));
    return { kind: 'internal', depth: s, kh, hash: internalHash(left.hash, right.hash) };
  }
}

/** The tree of `leaves` (sorted by key hash) as `version`, in one call (SortedTreeBuilder). */
export function buildSortedTree(
  leaves: Iterable<SortedLeaf>,
  version: number,
  write: (key: Uint8Array, value: Uint8Array) => void,
): SortedBuildResult {
  const b = new SortedTreeBuilder(version, write);
  for (const leaf of leaves) b.add(leaf);
  return b.finish();
}
