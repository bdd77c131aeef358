// The state tree (docs/design/state.md): a binary sparse Merkle tree over the key hashes of every state
// row, a subtree holding one key stored as that key's leaf (compressed paths), an empty subtree as
// EMPTY_SUBTREE. Its shape is a function of the set of (key, value) pairs alone, so the order rows were
// written in never matters. A block's update walks only the paths of the keys it changed:
// O(changes × depth) node reads and writes, depth ≈ log2(rows).
//
// Nodes are immutable and versioned (nodes.ts): update v writes the nodes it creates under version v and
// records the ones it replaces as stale since v, so every version kept can still be read (and proved
// against) until it is pruned. Reads go through the updates applied but not yet durable in the store,
// then a bounded cache of decoded nodes, then the store.

import { assert } from '../../util/assert.js';
import { compareBytes, toHex } from '../../util/hex.js';
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
import {
  type Child,
  decodeNode,
  decodeRef,
  encodeNode,
  encodeRef,
  encodeStaleList,
  NODE_SPACE_BYTE,
  type NodeRef,
  nodeKey,
  rootKey,
  STALE_SPACE_BYTE,
  STATE_TREE_PREFIX,
  stalePrefix,
  staleRecordNodes,
  staleSince,
  type TreeNode,
} from './nodes.js';
import { retainPinned, type TreePins } from './pins.js';
import type { StateProof } from './proof.js';

/** Where the tree reads its stored nodes: the state store, or memory. */
export interface NodeReader {
  get(key: Uint8Array): Uint8Array | undefined;
  /**
   * The stale records `version` wrote (the keys under nodes.ts stalePrefix(version)): its stale list, or
   * in a store written before the list one record per node.
   */
  staleRecords(version: number): Iterable<{ key: Uint8Array; value: Uint8Array }>;
}

export interface TreeWrite {
  key: Uint8Array;
  /** undefined: delete (a pruned node). */
  value: Uint8Array | undefined;
}

export interface TreeChange {
  key: Uint8Array;
  /** undefined: the row is deleted. */
  value: Uint8Array | undefined;
}

export interface TreeUpdate {
  readonly baseVersion: number;
  readonly version: number;
  readonly root: Child;
  /** The header's state root after the update. */
  readonly stateRoot: Uint8Array;
  /** Nodes, the root record, the stale list and the pruned nodes and stale records, for the state store. */
  readonly writes: readonly TreeWrite[];
  /** The decoded nodes among `writes`, by key string (kept until durable). */
  readonly nodes: ReadonlyMap<string, TreeNode>;
  /** The key of each of `writes` as a key string, in the same order (apply() keys its pending map by them). */
  readonly keys: readonly string[];
}

export interface StateTreeOptions {
  /** Decoded nodes kept in memory (least recently used out first). */
  cacheNodes?: number | undefined;
  /** Versions whose nodes stay readable (proofs at recent heights); older ones are pruned. */
  versionsKept?: number | undefined;
  /** When set, applied writes go straight here (a tree in memory) instead of waiting for durable(). */
  writeThrough?: (writes: readonly TreeWrite[]) => void;
  /** Versions kept beyond the window (pins.ts): their nodes and root are not pruned. */
  pins?: TreePins | undefined;
}

/** The version of a tree before its first update (the first may then be version 0). */
export const EMPTY_TREE_VERSION = -1;

export const TREE_CACHE_NODES_DEFAULT = 200_000;
export const TREE_VERSIONS_KEPT_DEFAULT = 128;

/** A version whose nodes are gone (pruned, or never written here). */
export class StateTreeVersionError extends Error {
  override readonly name = 'StateTreeVersionError';
}

/** Bytes as a Map key: one char per byte (node keys are short: one call, no string built char by char). */
function keyString(b: Uint8Array): string {
  return String.fromCharCode.apply(null, b as unknown as number[]);
}

/** The bytes of a key string (keyString's inverse). */
function keyBytes(k: string): Uint8Array {
  const out = new Uint8Array(k.length);
  for (let i = 0; i < k.length; i++) out[i] = k.charCodeAt(i);
  return out;
}

/** Scratch for nodeKeyString: a plain array (no typed array to allocate and collect per node). */
const keyChars: number[] = [];

/** keyString(nodeKey(version, depth, kh)), without the key's bytes (the walk looks nodes up by string). */
function nodeKeyString(version: number, depth: number, kh: Uint8Array): string {
  assert(Number.isSafeInteger(version) && version >= 0, `state tree version ${version}`);
  const pathBytes = (depth + 7) >> 3;
  keyChars.length = 12 + pathBytes;
  keyChars[0] = STATE_TREE_PREFIX;
  keyChars[1] = NODE_SPACE_BYTE;
  let hi = Math.floor(version / 2 ** 32);
  let lo = version % 2 ** 32;
  for (let i = 3; i >= 0; i--) {
    keyChars[2 + i] = hi & 0xff;
    hi = Math.floor(hi / 256);
    keyChars[6 + i] = lo & 0xff;
    lo = Math.floor(lo / 256);
  }
  keyChars[10] = depth >> 8;
  keyChars[11] = depth & 0xff;
  for (let i = 0; i < pathBytes; i++) keyChars[12 + i] = kh[i]!;
  if (depth & 7) keyChars[11 + pathBytes] = kh[pathBytes - 1]! & ((0xff << (8 - (depth & 7))) & 0xff);
  return String.fromCharCode.apply(null, keyChars);
}

/** `path` with bit `d` set to `bit` (a fresh array; the bits after d are not meaningful). */
function childPath(path: Uint8Array, d: number, bit: number): Uint8Array {
  const out = path.slice(0, (d >> 3) + 1);
  const mask = 0x80 >> (d & 7);
  if (bit === 1) out[d >> 3]! |= mask;
  else out[d >> 3]! &= ~mask & 0xff;
  return out;
}

/**
 * Decoded nodes in two generations: a hit in the older one moves the node to the newer, and when the newer
 * is full it becomes the older (the old older is dropped). Close to least-recently-used, without the
 * delete and re-insert a strict order costs on every hit.
 */
class NodeCache {
  private young = new Map<string, TreeNode>();
  private old = new Map<string, TreeNode>();
  private readonly half: number;

  constructor(readonly max: number) {
    this.half = Math.max(1, Math.floor(max / 2));
  }

  /** The cached node without touching its generation (a read of a node about to go stale). */
  peek(k: string): TreeNode | undefined {
    return this.young.get(k) ?? this.old.get(k);
  }

  /** Cached nodes (for tests). */
  get size(): number {
    return this.young.size + this.old.size;
  }

  get(k: string): TreeNode | undefined {
    const y = this.young.get(k);
    if (y !== undefined) return y;
    const o = this.old.get(k);
    if (o !== undefined) {
      this.old.delete(k);
      this.set(k, o);
    }
    return o;
  }

  set(k: string, n: TreeNode): void {
    if (this.max === 0) return;
    this.young.set(k, n);
    if (this.young.size >= this.half) {
      this.old = this.young;
      this.young = new Map();
    }
  }

  delete(k: string): void {
    this.young.delete(k);
    this.old.delete(k);
  }
}

/** The depth a node key string names (its bytes 10 and 11). */
function keyDepth(k: string): number {
  return (k.charCodeAt(10) << 8) | k.charCodeAt(11);
}

/**
 * The deepest level TopNodes covers for a cache of `max` nodes: its positions (2^(depth+1) - 1) take at
 * most two thirds of the bound; -1 (none) for a cache too small to hold the top.
 */
export function topNodesDepth(max: number): number {
  return Math.min(TREE_DEPTH_MAX, Math.floor(Math.log2(Math.floor((max * 2) / 3) + 1)) - 1);
}

/**
 * The tree's nodes at depth ≤ `depth`, one per position (depth and path): the latest version remembered at
 * a position replaces the earlier one. Every update's walk passes through the top levels, but with about
 * 1,000 rows changed per block a position at depth d changes once every 2^d / 1,000 blocks (65 at depth
 * 16), while the generational cache, refilled with each block's ten thousand new nodes at a million rows,
 * holds the last 10–20 blocks' nodes: here a position keeps its node until a newer version replaces it,
 * so the walk reads none of them from the store. At most 2^(depth+1) - 1 entries.
 */
class TopNodes {
  private readonly map = new Map<string, { k: string; n: TreeNode }>();

  constructor(readonly depth: number) {}

  get size(): number {
    return this.map.size;
  }

  /** Whether a node at depth `d` belongs here. */
  covers(d: number): boolean {
    return d <= this.depth;
  }

  get(k: string): TreeNode | undefined {
    const e = this.map.get(k.slice(10));
    return e !== undefined && e.k === k ? e.n : undefined;
  }

  /** Remembers `n` under `k` unless its position holds a newer version already (a proof's older read). */
  set(k: string, n: TreeNode): void {
    const pos = k.slice(10);
    const e = this.map.get(pos);
    // The version is the key's bytes 2..9, big-endian: string order is version order.
    if (e !== undefined && e.k.slice(2, 10) > k.slice(2, 10)) return;
    this.map.set(pos, { k, n });
  }

  /** Forgets `k` (pruned) when its position still holds it. */
  delete(k: string): void {
    const pos = k.slice(10);
    if (this.map.get(pos)?.k === k) this.map.delete(pos);
  }
}

interface Item {
  kh: Uint8Array;
  vh: Uint8Array;
  hash: Uint8Array;
  /** Where an existing leaf is stored. */
  at?: { ref: NodeRef; depth: number };
}

/**
 * A subtree after the update: empty, a stored node at a known position, or a leaf not placed yet. The
 * position of an `at` node is its first `depth` bits of `path`, except that when `bit` is 0 or 1 bit
 * depth-1 is that instead (an untouched sibling: its path is only built if it moves). `visited`: the walk
 * read it and recorded it as stale.
 */
type Sub =
  | undefined
  | { t: 'at'; ref: NodeRef; depth: number; path: Uint8Array; bit: number; visited: boolean }
  | { t: 'leaf'; kh: Uint8Array; vh: Uint8Array; hash: Uint8Array };

function atPath(sub: { depth: number; path: Uint8Array; bit: number }): Uint8Array {
  return sub.bit < 0 ? sub.path : childPath(sub.path, sub.depth - 1, sub.bit);
}

interface Change {
  kh: Uint8Array;
  vh: Uint8Array | undefined;
}

/** The path of the top (no bits). */
const ZERO_PATH = new Uint8Array(32);

export class StateTree {
  private ver: number;
  private top: Child;
  /** Writes of applied updates not yet durable in the store, by key string (undefined: deleted). */
  private readonly pending = new Map<
    string,
    { version: number; bytes: Uint8Array | undefined; node?: TreeNode }
  >();
  private readonly pendingVersions: { version: number; keys: string[] }[] = [];
  private readonly cache: NodeCache;
  private readonly topNodes: TopNodes | undefined;
  readonly versionsKept: number;

  constructor(
    private readonly reader: NodeReader,
    version: number,
    root: Child,
    private readonly opts: StateTreeOptions = {},
  ) {
    this.ver = version;
    this.top = root;
    const cacheMax = opts.cacheNodes ?? TREE_CACHE_NODES_DEFAULT;
    this.versionsKept = opts.versionsKept ?? TREE_VERSIONS_KEPT_DEFAULT;
    assert(
      Number.isSafeInteger(cacheMax) &&
        cacheMax >= 0 &&
        Number.isSafeInteger(this.versionsKept) &&
        this.versionsKept >= 2,
      `state tree: cache of ${cacheMax} nodes, ${this.versionsKept} versions kept`,
    );
    // The top levels by position first (their positions bound their size), the rest of the bound for the
    // generational cache of deeper nodes.
    const topDepth = topNodesDepth(cacheMax);
    this.topNodes = topDepth < 0 ? undefined : new TopNodes(topDepth);
    this.cache = new NodeCache(topDepth < 0 ? cacheMax : cacheMax - (2 ** (topDepth + 1) - 1));
  }

  /** The tree the store recorded for `version`; undefined when it holds no root for it. */
  static open(reader: NodeReader, version: number, opts: StateTreeOptions = {}): StateTree | undefined {
    const stored = reader.get(rootKey(version));
    if (stored === undefined) return undefined;
    const r = decodeRef(stored);
    if (!r.ok) return undefined;
    return new StateTree(reader, version, r.ref, opts);
  }

  get version(): number {
    return this.ver;
  }

  /** The top hash (EMPTY_SUBTREE when no row exists). */
  topHash(): Uint8Array {
    return this.top?.hash ?? EMPTY_SUBTREE;
  }

  /** The header's state root (version 2) of the current version. */
  stateRoot(): Uint8Array {
    return stateRootOf(this.topHash());
  }

  /** The root record of every kept version must be written once: the writes that record this version. */
  rootWrites(): TreeWrite[] {
    return [{ key: rootKey(this.ver), value: encodeRef(this.top) }];
  }

  /**
   * The update that applies `changes` (any order; one change per key) to the current version as
   * `version`. Pure: nothing changes until apply().
   */
  prepare(changes: readonly TreeChange[], version = this.ver + 1): TreeUpdate {
    assert(version > this.ver, `state tree: update to version ${version} from ${this.ver}`);
    const ch: Change[] = changes.map((c) => ({
      kh: keyHash(c.key),
      vh: c.value === undefined ? undefined : valueHash(c.value),
    }));
    ch.sort((a, b) => compareBytes(a.kh, b.kh));
    for (let i = 1; i < ch.length; i++)
      assert(compareBytes(ch[i - 1]!.kh, ch[i]!.kh) < 0, 'state tree: two changes to one key');
    const u = new Updater(this, version);
    const sub = u.visit(this.top, 0, ZERO_PATH, -1, ch, 0, ch.length);
    const root = sub === undefined ? undefined : u.place(sub, 0);
    u.finish(root, this.versionsKept);
    assert(u.keys.length === u.writes.length, 'state tree: a write without its key string');
    return {
      baseVersion: this.ver,
      version,
      root,
      stateRoot: stateRootOf(root?.hash ?? EMPTY_SUBTREE),
      writes: u.writes,
      nodes: u.nodes,
      keys: u.keys,
    };
  }

  /**
   * The writes of `update` the store takes: its writes without the prunes of pinned versions (pins are
   * read when the update is applied, not when it was prepared, so a pin added in between holds).
   */
  storeWrites(update: TreeUpdate): readonly TreeWrite[] {
    return this.opts.pins === undefined ? update.writes : retainPinned(update.writes, this.opts.pins);
  }

  /** Makes `update` the current version (it must have been prepared against the current one). */
  apply(update: TreeUpdate): void {
    assert(
      update.baseVersion === this.ver,
      `state tree: update prepared against version ${update.baseVersion} applied at ${this.ver}`,
    );
    const writes = this.storeWrites(update);
    if (this.opts.writeThrough !== undefined) {
      this.opts.writeThrough(writes);
      for (const w of writes) if (w.value === undefined) this.forget(keyString(w.key));
    } else {
      const keys: string[] = [];
      // The update's own key strings, unless pins held some of its writes back.
      const known = writes === update.writes ? update.keys : undefined;
      for (let i = 0; i < writes.length; i++) {
        const w = writes[i]!;
        const k = known !== undefined ? known[i]! : keyString(w.key);
        keys.push(k);
        const node = update.nodes.get(k);
        const version = update.version;
        this.pending.set(
          k,
          node === undefined ? { version, bytes: w.value } : { version, bytes: w.value, node },
        );
        if (w.value === undefined) this.forget(k);
      }
      this.pendingVersions.push({ version: update.version, keys });
    }
    this.ver = update.version;
    this.top = update.root;
  }

  /** The store holds every write of the updates up to `version`: they leave the pending set. */
  durable(version: number): void {
    while (this.pendingVersions.length > 0 && this.pendingVersions[0]!.version <= version) {
      const { keys, version: v } = this.pendingVersions.shift()!;
      for (const k of keys) {
        const p = this.pending.get(k);
        // A later pending update may have written the same key (pruned it): that write stays.
        if (p === undefined || p.version !== v) continue;
        this.pending.delete(k);
        if (p?.node !== undefined) this.remember(k, p.node);
      }
    }
  }

  /** The writes of the applied update `version` that are not durable yet (copies). */
  pendingWrites(version: number): TreeWrite[] {
    const pend = this.pendingVersions.find((p) => p.version === version);
    if (pend === undefined) return [];
    return pend.keys.map((k) => ({
      key: Uint8Array.from(k, (c) => c.charCodeAt(0)),
      value: this.pending.get(k)?.bytes?.slice(),
    }));
  }

  /** Decoded nodes in the cache, the top levels' included (for tests). */
  cachedCount(): number {
    return this.cache.size + (this.topNodes?.size ?? 0);
  }

  /** How many updates are applied but not yet durable (for assertions and tests). */
  pendingCount(): number {
    return this.pendingVersions.length;
  }

  /** A proof for `key` at `version` (default: the current one); StateTreeVersionError when not kept. */
  prove(key: Uint8Array, version = this.ver): StateProof {
    let ref: Child;
    if (version === this.ver) ref = this.top;
    else {
      const stored = this.raw(rootKey(version));
      const r = stored === undefined ? undefined : decodeRef(stored);
      // Older than the window and not pinned: not kept, even while its prune is not yet durable.
      const outside = version < this.ver - this.versionsKept && this.opts.pins?.has(version) !== true;
      if (r === undefined || !r.ok || version > this.ver || outside)
        throw new StateTreeVersionError(`state tree version ${version} is not kept (current ${this.ver})`);
      ref = r.ref;
    }
    const kh = keyHash(key);
    const siblings: Uint8Array[] = [];
    let d = 0;
    while (ref !== undefined && ref.kind === 'internal') {
      const node = this.node(nodeKey(ref.version, d, kh));
      assert(node.kind === 'internal', `state tree: internal reference to a leaf at depth ${d}`);
      const right = bitAt(kh, d) === 1;
      siblings.push((right ? node.left : node.right)?.hash ?? EMPTY_SUBTREE);
      ref = right ? node.right : node.left;
      d++;
    }
    if (ref === undefined) return { leaf: undefined, siblings };
    const leaf = this.node(nodeKey(ref.version, d, kh));
    assert(leaf.kind === 'leaf', `state tree: leaf reference to an internal node at depth ${d}`);
    return { leaf: { keyHash: leaf.keyHash, valueHash: leaf.valueHash }, siblings };
  }

  /** The decoded node under `key`; a missing or malformed node is a broken store (assertion). */
  node(key: Uint8Array): TreeNode {
    return this.nodeAt(keyString(key));
  }

  /**
   * node() by key string. `keep` false: the caller replaces the node (an update's walk reads only nodes
   * on the paths it rewrites, each stale once the update applies), so a node read from the store is
   * not cached and a cached one is not moved to the newer generation: the cache keeps its room for the
   * current tree's nodes instead of filling, at every block, with the ones the block replaced.
   */
  nodeAt(k: string, keep = true): TreeNode {
    const p = this.pending.get(k);
    if (p !== undefined) {
      assert(p.bytes !== undefined, 'state tree: a pruned node is still referenced');
      if (p.node !== undefined) return p.node;
      const n = decodeNode(p.bytes);
      assert(n !== undefined, 'state tree: an undecodable pending node');
      return n;
    }
    // A deeper node's key is not looked up by position (no slice of its key string).
    const top = this.topNodes?.covers(keyDepth(k)) === true ? this.topNodes.get(k) : undefined;
    if (top !== undefined) return top;
    const cached = keep ? this.cache.get(k) : this.cache.peek(k);
    if (cached !== undefined) return cached;
    const key = keyBytes(k);
    const bytes = this.reader.get(key);
    // The messages are built only on failure: this runs for every node a block's update reads.
    if (bytes === undefined) assert(false, `state tree: node ${toHex(key)} is missing`);
    const n = decodeNode(bytes);
    if (n === undefined) assert(false, `state tree: node ${toHex(key)} is undecodable`);
    if (keep) this.remember(k, n);
    return n;
  }

  /** The stale records of `version` (its list, or per-node records of the earlier form), pending ones included. */
  staleRecords(version: number): { key: Uint8Array; value: Uint8Array }[] {
    const pend = this.pendingVersions.find((p) => p.version === version);
    if (pend !== undefined) {
      const out: { key: Uint8Array; value: Uint8Array }[] = [];
      for (const k of pend.keys) {
        if (k.charCodeAt(1) !== STALE_SPACE_BYTE) continue;
        const value = this.pending.get(k)?.bytes;
        if (value !== undefined) out.push({ key: keyBytes(k), value });
      }
      return out;
    }
    return [...this.reader.staleRecords(version)];
  }

  private raw(key: Uint8Array): Uint8Array | undefined {
    const p = this.pending.get(keyString(key));
    return p !== undefined ? p.bytes : this.reader.get(key);
  }

  private remember(k: string, n: TreeNode): void {
    if (this.topNodes?.covers(keyDepth(k)) === true) this.topNodes.set(k, n);
    else this.cache.set(k, n);
  }

  /** A pruned node leaves the caches. */
  private forget(k: string): void {
    this.cache.delete(k);
    this.topNodes?.delete(k);
  }
}

/** One update's walk: the nodes it writes and the ones it leaves stale. */
class Updater {
  readonly writes: TreeWrite[] = [];
  /** writes[i].key as a key string. */
  readonly keys: string[] = [];
  readonly nodes = new Map<string, TreeNode>();
  /** Key strings of the nodes this update leaves stale. */
  private readonly stale = new Set<string>();

  constructor(
    private readonly tree: StateTree,
    private readonly version: number,
  ) {}

  /**
   * The subtree `child` at depth `d` after the changes ch[lo, hi) (sorted; all under this subtree). Its
   * position is the first `d` bits of `path` with bit d-1 set to `bit` (-1: as it is); with changes in
   * range, the first change's key hash holds that position, so no path is built.
   */
  visit(
    child: Child,
    d: number,
    path: Uint8Array,
    bit: number,
    ch: readonly Change[],
    lo: number,
    hi: number,
  ): Sub {
    if (lo === hi)
      return child === undefined ? undefined : { t: 'at', ref: child, depth: d, path, bit, visited: false };
    if (child === undefined) {
      const items = newItems(ch, lo, hi);
      return this.build(items, 0, items.length, d);
    }
    const at = ch[lo]!.kh;
    const key = nodeKeyString(child.version, d, at);
    this.stale.add(key);
    const node = this.tree.nodeAt(key, false);
    if (node.kind === 'leaf') {
      const existing: Item = {
        kh: node.keyHash,
        vh: node.valueHash,
        hash: child.hash,
        at: { ref: child, depth: d },
      };
      const items: Item[] = [];
      let placed = false;
      for (let i = lo; i < hi; i++) {
        const c = ch[i]!;
        const cmp = compareBytes(existing.kh, c.kh);
        if (!placed && cmp < 0) {
          items.push(existing);
          placed = true;
        }
        if (cmp === 0) placed = true; // replaced or deleted
        if (c.vh !== undefined) items.push({ kh: c.kh, vh: c.vh, hash: leafHash(c.kh, c.vh) });
      }
      if (!placed) items.push(existing);
      return this.build(items, 0, items.length, d);
    }
    assert(d < TREE_DEPTH_MAX, 'state tree: an internal node at the deepest level');
    let m = lo;
    while (m < hi && bitAt(ch[m]!.kh, d) === 0) m++;
    const l = this.visit(node.left, d + 1, at, 0, ch, lo, m);
    const r = this.visit(node.right, d + 1, at, 1, ch, m, hi);
    return this.combine(l, r, d, at);
  }

  /** The stored reference of `sub` placed at depth `d` (on its own path), writing it when it moved or is new. */
  place(sub: NonNullable<Sub>, d: number): NodeRef {
    if (sub.t === 'at') {
      if (sub.depth === d) {
        if (sub.visited) this.stale.delete(nodeKeyString(sub.ref.version, d, sub.path));
        return sub.ref;
      }
      // Only a leaf moves (up, when its sibling subtree emptied).
      assert(sub.ref.kind === 'leaf', `state tree: an internal node moved from depth ${sub.depth} to ${d}`);
      const oldKey = nodeKeyString(sub.ref.version, sub.depth, atPath(sub));
      this.stale.add(oldKey);
      const leaf = this.tree.nodeAt(oldKey, false);
      assert(leaf.kind === 'leaf', `state tree: leaf reference to an internal node at depth ${sub.depth}`);
      this.write(nodeKeyString(this.version, d, leaf.keyHash), leaf);
      return { kind: 'leaf', version: this.version, hash: sub.ref.hash };
    }
    this.write(nodeKeyString(this.version, d, sub.kh), { kind: 'leaf', keyHash: sub.kh, valueHash: sub.vh });
    return { kind: 'leaf', version: this.version, hash: sub.hash };
  }

  /**
   * Records the root and the stale list (one record for all the nodes this update leaves stale), and
   * prunes the version that falls out of the kept window: its stale nodes and its stale records.
   */
  finish(root: Child, versionsKept: number): void {
    this.push(rootKey(this.version), encodeRef(root));
    if (this.stale.size > 0) this.push(stalePrefix(this.version), encodeStaleList(this.stale));
    // Versions > version - versionsKept stay readable: a node stale since s is needed by versions < s only.
    const cut = this.version - versionsKept;
    if (cut >= 1) {
      for (const r of this.tree.staleRecords(cut)) {
        for (const node of staleRecordNodes(r.key, r.value)) this.push(node, undefined);
        this.push(r.key, undefined);
      }
      this.push(rootKey(cut - 1), undefined);
    }
  }

  /** The subtree at depth `d` whose children became `l` and `r`; `path` holds its first `d` bits. */
  private combine(l: Sub, r: Sub, d: number, path: Uint8Array): Sub {
    if (l === undefined && r === undefined) return undefined;
    if (l === undefined && isLeaf(r)) return r;
    if (r === undefined && isLeaf(l)) return l;
    const left = l === undefined ? undefined : this.place(l, d + 1);
    const right = r === undefined ? undefined : this.place(r, d + 1);
    const hash = internalHash(left?.hash ?? EMPTY_SUBTREE, right?.hash ?? EMPTY_SUBTREE);
    this.write(nodeKeyString(this.version, d, path), { kind: 'internal', left, right });
    return {
      t: 'at',
      ref: { kind: 'internal', version: this.version, hash },
      depth: d,
      path,
      bit: -1,
      visited: false,
    };
  }

  /** The subtree at depth `d` holding items[lo, hi) (sorted, sharing their first `d` bits). */
  private build(items: readonly Item[], lo: number, hi: number, d: number): Sub {
    if (hi === lo) return undefined;
    if (hi - lo === 1) {
      const it = items[lo]!;
      return it.at === undefined
        ? { t: 'leaf', kh: it.kh, vh: it.vh, hash: it.hash }
        : { t: 'at', ref: it.at.ref, depth: it.at.depth, path: it.kh, bit: -1, visited: true };
    }
    assert(d < TREE_DEPTH_MAX, 'state tree: two keys with one key hash');
    let m = lo;
    while (m < hi && bitAt(items[m]!.kh, d) === 0) m++;
    const l = this.build(items, lo, m, d + 1);
    const r = this.build(items, m, hi, d + 1);
    return this.combine(l, r, d, items[lo]!.kh);
  }

  private write(k: string, node: TreeNode): void {
    this.push(keyBytes(k), encodeNode(node), k);
    this.nodes.set(k, node);
  }

  /** One write, with its key string (computed when the caller has none). */
  private push(key: Uint8Array, value: Uint8Array | undefined, k = keyString(key)): void {
    this.writes.push({ key, value });
    this.keys.push(k);
  }
}

function isLeaf(s: Sub): boolean {
  return s !== undefined && (s.t === 'leaf' || s.ref.kind === 'leaf');
}

/** The new leaves among ch[lo, hi) (deletes of absent keys drop out). */
function newItems(ch: readonly Change[], lo: number, hi: number): Item[] {
  const out: Item[] = [];
  for (let i = lo; i < hi; i++) {
    const c = ch[i]!;
    if (c.vh !== undefined) out.push({ kh: c.kh, vh: c.vh, hash: leafHash(c.kh, c.vh) });
  }
  return out;
}

/** The in-memory store of a tree without a state store (tests, replays, the simulator). */
export class MemoryNodeStore implements NodeReader {
  private readonly map = new Map<string, Uint8Array>();
  /** Stale records by the version they were filed under, then by key string (read back sorted by key). */
  private readonly stale = new Map<number, Map<string, { key: Uint8Array; value: Uint8Array }>>();

  get(key: Uint8Array): Uint8Array | undefined {
    return this.map.get(keyString(key));
  }

  staleRecords(version: number): Iterable<{ key: Uint8Array; value: Uint8Array }> {
    const records = this.stale.get(version);
    if (records === undefined) return [];
    return [...records.keys()].sort().map((k) => records.get(k)!);
  }

  put(writes: readonly TreeWrite[]): void {
    for (const w of writes) {
      const k = keyString(w.key);
      if (w.key[1] === STALE_SPACE_BYTE) {
        const since = staleSince(w.key);
        const records = this.stale.get(since);
        if (w.value === undefined) {
          records?.delete(k);
          if (records?.size === 0) this.stale.delete(since);
        } else if (records === undefined)
          this.stale.set(since, new Map([[k, { key: w.key, value: w.value }]]));
        else records.set(k, { key: w.key, value: w.value });
      } else if (w.value === undefined) this.map.delete(k);
      else this.map.set(k, w.value);
    }
  }

  /** Stored entries (nodes and roots; the stale index is kept apart). */
  get size(): number {
    return this.map.size;
  }
}

/**
 * An empty tree held in memory only, applied writes going straight to a MemoryNodeStore. Its version is
 * -1 (before any): the first update may be version 0, the rows a state was loaded with.
 */
export function memoryTree(opts: Omit<StateTreeOptions, 'writeThrough'> = {}): StateTree {
  const store = new MemoryNodeStore();
  return new StateTree(store, EMPTY_TREE_VERSION, undefined, { ...opts, writeThrough: (w) => store.put(w) });
}
