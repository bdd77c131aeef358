// The nodes of a bulk build (sorted-build.ts) in store key order without sorting them: a node key is
// `0xFA 'n' ‖ version ‖ depth u16 BE ‖ path` (nodes.ts), and the builder hands out each depth's nodes
// with ascending paths, so the nodes of one version in key order are the depths one after another, each
// in the order it was written, then the root record (`0xFA 'r' ‖ version`, above every node key).
// One append-only spool per depth: records `key length u16 BE ‖ key ‖ value length u32 BE ‖ value`
// fill the depth's buffer; a full buffer is appended to one scratch file as a segment of that depth.
// sorted() reads each depth's segments back through a window (util/run-merge.ts), then its buffer.
// Memory: one buffer per depth in use (about log2 of the leaves, plus the chains' depths), whatever
// the number of nodes; a tree that fits in them never touches the disk.

import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { assert } from '../../util/assert.js';
import { RunWindow } from '../../util/run-merge.js';
import { TREE_DEPTH_MAX } from './hash.js';
import { NODE_SPACE_BYTE, STATE_TREE_PREFIX } from './nodes.js';

/** Bytes buffered per depth by default before they go to the scratch file. */
export const SPOOL_DEPTH_BYTES = 256 << 10;
/** Bytes read at a time from a segment of the scratch file. */
const WINDOW_BYTES = 256 << 10;
/** The root record's key: `0xFA 'r' ‖ version u64`. */
const ROOT_KEY_BYTES = 10;
/** A node key's depth is at bytes 10..11. */
const DEPTH_AT = 10;
/** Scratch files of spools alive at once in this process get different names. */
let spools = 0;

interface Depth {
  buf: Buffer;
  used: number;
  /** Byte ranges of this depth's segments in the scratch file, in the order written. */
  segments: number[];
}

export interface SpooledNode {
  /** Views valid until the next step of the iteration. */
  key: Uint8Array;
  value: Uint8Array;
}

export class NodeSpool {
  private readonly depths: (Depth | undefined)[] = new Array(TREE_DEPTH_MAX + 1);
  private root: SpooledNode | undefined;
  private fileEnd = 0;
  private fd: number | undefined;
  private readonly path: string;
  private count = 0;
  private done = false;

  /** `dir` receives the scratch file (only when a depth outgrows its buffer); it must exist. */
  constructor(
    dir: string,
    private readonly depthBytes = SPOOL_DEPTH_BYTES,
  ) {
    assert(Number.isSafeInteger(depthBytes) && depthBytes >= 64, `node spool: ${depthBytes} bytes per depth`);
    this.path = join(dir, `node-spool-${process.pid}-${++spools}.tmp`);
  }

  /** Nodes and root records added. */
  get size(): number {
    return this.count;
  }

  /**
   * A node of the build (each depth's in key order: the builder's order) or the root record (once,
   * last in key order whatever the time it comes).
   */
  add(key: Uint8Array, value: Uint8Array): void {
    assert(!this.done, 'node spool: a node added after sorting');
    assert(key[0] === STATE_TREE_PREFIX, 'node spool: a key outside the state tree');
    this.count++;
    if (key[1] !== NODE_SPACE_BYTE) {
      assert(key.length === ROOT_KEY_BYTES && this.root === undefined, 'node spool: a second root record');
      this.root = { key: key.slice(), value: value.slice() };
      return;
    }
    const depth = (key[DEPTH_AT]! << 8) | key[DEPTH_AT + 1]!;
    assert(depth <= TREE_DEPTH_MAX, 'node spool: a node deeper than the tree');
    let d = this.depths[depth];
    if (d === undefined) {
      d = { buf: Buffer.allocUnsafe(this.depthBytes), used: 0, segments: [] };
      this.depths[depth] = d;
    }
    const k = key.length;
    const v = value.length;
    const size = 2 + k + 4 + v;
    if (d.used + size > d.buf.length) this.spill(d);
    if (size > d.buf.length) d.buf = Buffer.allocUnsafe(size);
    const b = d.buf;
    let a = d.used;
    b[a] = k >>> 8;
    b[a + 1] = k & 0xff;
    b.set(key, a + 2);
    a += 2 + k;
    b[a] = v >>> 24;
    b[a + 1] = (v >>> 16) & 0xff;
    b[a + 2] = (v >>> 8) & 0xff;
    b[a + 3] = v & 0xff;
    b.set(value, a + 4);
    d.used = a + 4 + v;
  }

  /** Appends the depth's buffer to the scratch file as its next segment. */
  private spill(d: Depth): void {
    if (d.used === 0) return;
    this.fd ??= openSync(this.path, 'w+', 0o600);
    let off = 0;
    while (off < d.used) off += writeSync(this.fd, d.buf, off, d.used - off, this.fileEnd + off);
    d.segments.push(this.fileEnd, this.fileEnd + d.used);
    this.fileEnd += d.used;
    d.used = 0;
  }

  /**
   * Every node added, in store key order (depth, then path), then the root record. The scratch file
   * is removed when the iteration ends (or is left).
   */
  *sorted(): Generator<SpooledNode> {
    assert(!this.done, 'node spool: sorted twice');
    this.done = true;
    let emitted = 0;
    try {
      for (const d of this.depths) {
        if (d === undefined) continue;
        for (let i = 0; i < d.segments.length; i += 2) {
          const w = new RunWindow(this.fd!, d.segments[i]!, d.segments[i + 1]!, WINDOW_BYTES, 'node spool');
          while (w.left > 0) {
            w.need(6);
            const k = (w.buf[w.at]! << 8) | w.buf[w.at + 1]!;
            w.need(2 + k + 4);
            const v = w.buf.readUInt32BE(w.at + 2 + k);
            w.need(2 + k + 4 + v);
            const a = w.at;
            yield { key: w.buf.subarray(a + 2, a + 2 + k), value: w.buf.subarray(a + 6 + k, a + 6 + k + v) };
            emitted++;
            w.skip(2 + k + 4 + v);
          }
        }
        const b = d.buf;
        for (let a = 0; a < d.used; ) {
          const k = (b[a]! << 8) | b[a + 1]!;
          const v = b.readUInt32BE(a + 2 + k);
          yield { key: b.subarray(a + 2, a + 2 + k), value: b.subarray(a + 6 + k, a + 6 + k + v) };
          emitted++;
          a += 6 + k + v;
        }
      }
      if (this.root !== undefined) {
        yield this.root;
        emitted++;
      }
      assert(emitted === this.count, `node spool: gave ${emitted} of ${this.count} records`);
    } finally {
      this.close();
    }
  }

  /** Removes the scratch file (also when the iteration is abandoned). Idempotent. */
  close(): void {
    this.depths.fill(undefined);
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
    rmSync(this.path, { force: true });
  }
}
