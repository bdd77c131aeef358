// Stored form of the state tree (docs/design/state.md §Storage). Nodes live in the state store beside the
// rows, in a key space the world state never uses (0xFA), keyed by the version that wrote them and their
// position, so a version's nodes are never overwritten by a later one and old versions can be pruned:
//   0xFA 'n' ‖ version u64 BE ‖ depth u16 BE ‖ ⌈depth/8⌉ path bytes (the key hash's first `depth` bits)
//                                                   → node
//   0xFA 'r' ‖ version u64 BE                       → the root reference of that version
//   0xFA 's' ‖ stale-since version u64 BE           → the stale list: the keys of the nodes that are not
//                                                      part of the tree from that version on, each as
//                                                      u8 length ‖ node key (one record per version)
//   0xFA 's' ‖ stale-since version u64 BE ‖ node key → empty: one node's stale record, as stores written
//                                                      before the stale list hold them (still read, pruned)
//   0xFA 'v' ‖ value hash 32 ‖ state key               → an old value kept for pinned heights (pins.ts)
// A reference: u8 kind (0 empty, 1 leaf, 2 internal) | version u64 BE | hash 32 (absent when empty).
// A node: 0x01 internal | left reference | right reference, or 0x02 leaf | keyHash 32 | valueHash 32.

import { assert } from '../../util/assert.js';
import { TREE_DEPTH_MAX, TREE_HASH_BYTES } from './hash.js';

/** The first byte of every state-tree key in the state store (below the transaction indexes, 0xFB..). */
export const STATE_TREE_PREFIX = 0xfa;
const NODE_SPACE = 0x6e;
/** The second byte of every node key (tree.ts builds node key strings without the bytes). */
export const NODE_SPACE_BYTE = NODE_SPACE;
const ROOT_SPACE = 0x72;
const STALE_SPACE = 0x73;
/** The second byte of every stale record's key. */
export const STALE_SPACE_BYTE = STALE_SPACE;

export interface NodeRef {
  readonly kind: 'leaf' | 'internal';
  /** The version (block height) that wrote the node. */
  readonly version: number;
  readonly hash: Uint8Array;
}

export type Child = NodeRef | undefined;

export type TreeNode =
  | { readonly kind: 'internal'; readonly left: Child; readonly right: Child }
  | { readonly kind: 'leaf'; readonly keyHash: Uint8Array; readonly valueHash: Uint8Array };

// Versions are written byte by byte, not through a DataView: a block's update encodes thousands of keys.
function putVersion(out: Uint8Array, at: number, v: number): void {
  assert(Number.isSafeInteger(v) && v >= 0, `state tree version ${v}`);
  let hi = Math.floor(v / 2 ** 32);
  let lo = v % 2 ** 32;
  for (let i = 3; i >= 0; i--) {
    out[at + i] = hi & 0xff;
    hi = Math.floor(hi / 256);
    out[at + 4 + i] = lo & 0xff;
    lo = Math.floor(lo / 256);
  }
}

function getVersion(b: Uint8Array, at: number): number {
  const hi = ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
  const lo = ((b[at + 4]! << 24) | (b[at + 5]! << 16) | (b[at + 6]! << 8) | b[at + 7]!) >>> 0;
  return hi * 2 ** 32 + lo;
}

/** The key of the node `version` wrote at depth `depth` on the path of `kh`. */
export function nodeKey(version: number, depth: number, kh: Uint8Array): Uint8Array {
  assert(depth >= 0 && depth <= TREE_DEPTH_MAX, `state tree depth ${depth}`);
  const pathBytes = (depth + 7) >> 3;
  const out = new Uint8Array(2 + 8 + 2 + pathBytes);
  out[0] = STATE_TREE_PREFIX;
  out[1] = NODE_SPACE;
  putVersion(out, 2, version);
  out[10] = depth >> 8;
  out[11] = depth & 0xff;
  out.set(kh.subarray(0, pathBytes), 12);
  if (depth & 7) out[out.length - 1]! &= (0xff << (8 - (depth & 7))) & 0xff;
  return out;
}

export function rootKey(version: number): Uint8Array {
  const out = new Uint8Array(10);
  out[0] = STATE_TREE_PREFIX;
  out[1] = ROOT_SPACE;
  putVersion(out, 2, version);
  return out;
}

/** The stale-index prefix of nodes left behind by `version` (all of them when omitted). */
export function stalePrefix(version?: number): Uint8Array {
  const out = new Uint8Array(version === undefined ? 2 : 10);
  out[0] = STATE_TREE_PREFIX;
  out[1] = STALE_SPACE;
  if (version !== undefined) putVersion(out, 2, version);
  return out;
}

/** Whether a stale-index key is a version's stale list (not one node's record of the earlier form). */
export function isStaleList(key: Uint8Array): boolean {
  return key.length === 10 && key[0] === STATE_TREE_PREFIX && key[1] === STALE_SPACE;
}

/** The stale list of node keys given as key strings (one char per byte), in their order. */
export function encodeStaleList(keys: Iterable<string>): Uint8Array {
  let size = 0;
  for (const k of keys) size += 1 + k.length;
  const out = new Uint8Array(size);
  let at = 0;
  for (const k of keys) {
    assert(k.length >= 12 && k.length <= 255, `state tree: a ${k.length}-byte node key in a stale list`);
    out[at++] = k.length;
    for (let i = 0; i < k.length; i++) out[at++] = k.charCodeAt(i);
  }
  return out;
}

/** encodeStaleList over node keys as bytes. */
export function encodeStaleListOf(nodes: readonly Uint8Array[]): Uint8Array {
  return encodeStaleList(nodes.map((n) => String.fromCharCode.apply(null, n as unknown as number[])));
}

/** The node keys of a stale list; undefined when the bytes are not one. */
export function decodeStaleList(b: Uint8Array): Uint8Array[] | undefined {
  const out: Uint8Array[] = [];
  let at = 0;
  while (at < b.length) {
    const n = b[at]!;
    if (n < 12 || at + 1 + n > b.length || b[at + 1] !== STATE_TREE_PREFIX || b[at + 2] !== NODE_SPACE)
      return undefined;
    out.push(copyOf(b, at + 1, at + 1 + n));
    at += 1 + n;
  }
  return out;
}

/** The node keys a stored stale record names: a version's list, or one node (the earlier form). */
export function staleRecordNodes(key: Uint8Array, value: Uint8Array): Uint8Array[] {
  if (!isStaleList(key)) return [parseStaleKey(key).node];
  const nodes = decodeStaleList(value);
  assert(nodes !== undefined, `state tree: an undecodable stale list of version ${staleSince(key)}`);
  return nodes;
}

/** One node's stale record (the form written before the stale list: read and pruned, no longer written). */
export function staleKey(since: number, node: Uint8Array): Uint8Array {
  const p = stalePrefix(since);
  const out = new Uint8Array(p.length + node.length);
  out.set(p, 0);
  out.set(node, p.length);
  return out;
}

/** The version a stale record (a list or one node's) was filed under (without copying a node key out). */
export function staleSince(key: Uint8Array): number {
  assert(key.length >= 10 && key[0] === STATE_TREE_PREFIX && key[1] === STALE_SPACE, 'not a stale-index key');
  return getVersion(key, 2);
}

/** The node key a stale-index key names, and the version it went stale at. */
export function parseStaleKey(key: Uint8Array): { since: number; node: Uint8Array } {
  assert(key.length > 10 && key[0] === STATE_TREE_PREFIX && key[1] === STALE_SPACE, 'not a stale-index key');
  return { since: getVersion(key, 2), node: new Uint8Array(key.subarray(10)) };
}

export function rootPrefix(): Uint8Array {
  return Uint8Array.of(STATE_TREE_PREFIX, ROOT_SPACE);
}

/** The version that wrote the node a node key names. */
export function nodeKeyVersion(key: Uint8Array): number {
  assert(key.length >= 12 && key[0] === STATE_TREE_PREFIX && key[1] === NODE_SPACE, 'not a node key');
  return getVersion(key, 2);
}

/** The version a root key names. */
export function parseRootKey(key: Uint8Array): number {
  assert(key.length === 10 && key[0] === STATE_TREE_PREFIX && key[1] === ROOT_SPACE, 'not a root key');
  return getVersion(key, 2);
}

const REF_BYTES = 1 + 8 + TREE_HASH_BYTES;

/**
 * A plain Uint8Array copy of b[from, to), one allocation: a store's bytes may be a Buffer, whose slice()
 * is a view and whose species copy is a Buffer again.
 */
function copyOf(b: Uint8Array, from: number, to: number): Uint8Array {
  const out = new Uint8Array(to - from);
  for (let i = from; i < to; i++) out[i - from] = b[i]!;
  return out;
}

function writeRef(out: Uint8Array, at: number, ref: Child): number {
  if (ref === undefined) {
    out[at] = 0;
    return at + 1;
  }
  out[at] = ref.kind === 'leaf' ? 1 : 2;
  putVersion(out, at + 1, ref.version);
  out.set(ref.hash, at + 9);
  return at + REF_BYTES;
}

function refBytes(ref: Child): number {
  return ref === undefined ? 1 : REF_BYTES;
}

/** Reads a reference at `at`; undefined `next` when the bytes are malformed. */
function readRef(b: Uint8Array, at: number): { ref: Child; next: number } | undefined {
  const tag = b[at];
  if (tag === 0) return { ref: undefined, next: at + 1 };
  if ((tag !== 1 && tag !== 2) || at + REF_BYTES > b.length) return undefined;
  return {
    ref: {
      kind: tag === 1 ? 'leaf' : 'internal',
      version: getVersion(b, at + 1),
      hash: copyOf(b, at + 9, at + REF_BYTES),
    },
    next: at + REF_BYTES,
  };
}

export function encodeRef(ref: Child): Uint8Array {
  const out = new Uint8Array(refBytes(ref));
  writeRef(out, 0, ref);
  return out;
}

export function decodeRef(b: Uint8Array): { ok: true; ref: Child } | { ok: false } {
  const r = readRef(b, 0);
  return r === undefined || r.next !== b.length ? { ok: false } : { ok: true, ref: r.ref };
}

export function encodeNode(node: TreeNode): Uint8Array {
  if (node.kind === 'leaf') {
    const out = new Uint8Array(1 + 2 * TREE_HASH_BYTES);
    out[0] = 0x02;
    out.set(node.keyHash, 1);
    out.set(node.valueHash, 1 + TREE_HASH_BYTES);
    return out;
  }
  const out = new Uint8Array(1 + refBytes(node.left) + refBytes(node.right));
  out[0] = 0x01;
  writeRef(out, writeRef(out, 1, node.left), node.right);
  return out;
}

/** The node in `b`; undefined when the bytes are not one well-formed node. */
export function decodeNode(b: Uint8Array): TreeNode | undefined {
  if (b[0] === 0x02) {
    if (b.length !== 1 + 2 * TREE_HASH_BYTES) return undefined;
    return {
      kind: 'leaf',
      keyHash: copyOf(b, 1, 1 + TREE_HASH_BYTES),
      valueHash: copyOf(b, 1 + TREE_HASH_BYTES, b.length),
    };
  }
  if (b[0] !== 0x01) return undefined;
  const l = readRef(b, 1);
  if (l === undefined) return undefined;
  const r = readRef(b, l.next);
  if (r === undefined || r.next !== b.length) return undefined;
  return { kind: 'internal', left: l.ref, right: r.ref };
}
