// The state root of a set of rows computed from their leaves alone, without storing a tree: what a
// snapshot verifier needs (docs/design/snapshots.md). Each row costs 64 bytes (key hash and value hash)
// in one growing buffer; the root is then folded over the leaves sorted by key hash with the tree's
// rules (tree.ts): one key in a subtree is its leaf, two or more an internal node, none EMPTY_SUBTREE.

import { assert } from '../../util/assert.js';
import {
  bitAt,
  EMPTY_SUBTREE,
  internalHash,
  keyHash,
  leafHash,
  stateRootOf,
  TREE_DEPTH_MAX,
  valueHash,
} from './hash.js';

const LEAF_BYTES = 64;

export class LeavesRoot {
  private buf = new Uint8Array(LEAF_BYTES * 1024);
  private n = 0;

  /** Adds one row (each key once: the caller checks rows are distinct). */
  add(key: Uint8Array, value: Uint8Array): void {
    if ((this.n + 1) * LEAF_BYTES > this.buf.length) {
      const bigger = new Uint8Array(this.buf.length * 2);
      bigger.set(this.buf);
      this.buf = bigger;
    }
    this.buf.set(keyHash(key), this.n * LEAF_BYTES);
    this.buf.set(valueHash(value), this.n * LEAF_BYTES + 32);
    this.n++;
  }

  get size(): number {
    return this.n;
  }

  /** The header's (version 2) state root of the rows added. */
  stateRoot(): Uint8Array {
    const order = new Uint32Array(this.n);
    for (let i = 0; i < this.n; i++) order[i] = i;
    const buf = this.buf;
    // First 4 bytes as a number decide almost every comparison; the rest only on a tie.
    const head = new Uint32Array(this.n);
    const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    for (let i = 0; i < this.n; i++) head[i] = view.getUint32(i * LEAF_BYTES);
    const sorted = Array.from(order).sort((a, b) => {
      const d = head[a]! - head[b]!;
      if (d !== 0) return d;
      for (let k = 4; k < 32; k++) {
        const x = buf[a * LEAF_BYTES + k]! - buf[b * LEAF_BYTES + k]!;
        if (x !== 0) return x;
      }
      return 0;
    });
    const kh = (i: number) => buf.subarray(sorted[i]! * LEAF_BYTES, sorted[i]! * LEAF_BYTES + 32);
    const vh = (i: number) => buf.subarray(sorted[i]! * LEAF_BYTES + 32, sorted[i]! * LEAF_BYTES + 64);
    const fold = (lo: number, hi: number, d: number): Uint8Array | undefined => {
      if (lo === hi) return undefined;
      if (hi - lo === 1) return leafHash(kh(lo), vh(lo));
      assert(d < TREE_DEPTH_MAX, 'leaves root: two rows with one key hash');
      let m = lo;
      while (m < hi && bitAt(kh(m), d) === 0) m++;
      const l = fold(lo, m, d + 1);
      const r = fold(m, hi, d + 1);
      return internalHash(l ?? EMPTY_SUBTREE, r ?? EMPTY_SUBTREE);
    };
    return stateRootOf(fold(0, this.n, 0) ?? EMPTY_SUBTREE);
  }
}
