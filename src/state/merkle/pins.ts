// Pinned versions of the state tree (docs/ledger-proofs.md "Retention and pins"): heights an operator
// keeps provable beyond the rolling window of `storage.state_tree_versions_kept` versions. Pinning
// changes only what is pruned and what is kept beside the tree, never a hash: it is node-local.
//
// - A pinned version's root record and every node it reads stay stored: the prune of a block drops
//   only the deletions no pin needs (`retainPinned`), and a node stays in its stale index so that an
//   unpin finds and prunes it later (`retentionGc`).
// - The old values a pinned version's proofs need are kept in the state store under
//   0xFA 'v' ‖ H(value) ‖ state key → value bytes, written with the block that overwrites them: a
//   block overwriting or deleting a row keeps its previous value when the newest pin at or below the
//   state's height held that very value (one proof walk per changed row, none when that pin is the
//   current height). Content-addressed: one copy per (key, value), whichever pins share it.

import { assert } from '../../util/assert.js';
import { bytesEqual } from '../../util/hex.js';
import { keyHash, TREE_HASH_BYTES, valueHash } from './hash.js';
import {
  encodeStaleListOf,
  isStaleList,
  nodeKeyVersion,
  parseRootKey,
  parseStaleKey,
  rootPrefix,
  STATE_TREE_PREFIX,
  stalePrefix,
  staleRecordNodes,
  staleSince,
} from './nodes.js';
import { type StateTree, StateTreeVersionError, type TreeWrite } from './tree.js';

const ROOT_SPACE = 0x72;
const STALE_SPACE = 0x73;
const NODE_SPACE = 0x6e;
const ARCHIVE_SPACE = 0x76;

/** The pinned heights of a state tree (mutable: the operator routes add and remove them). */
export class TreePins {
  private readonly heights = new Set<number>();

  constructor(heights: Iterable<number> = []) {
    for (const h of heights) this.add(h);
  }

  get size(): number {
    return this.heights.size;
  }

  has(height: number): boolean {
    return this.heights.has(height);
  }

  add(height: number): void {
    assert(Number.isSafeInteger(height) && height >= 0, `state tree pin at ${height}`);
    this.heights.add(height);
  }

  delete(height: number): boolean {
    return this.heights.delete(height);
  }

  /** The pinned heights, lowest first. */
  list(): number[] {
    return [...this.heights].sort((a, b) => a - b);
  }

  /** Whether a node written by version `created` and stale from version `since` on is part of a pin. */
  needs(created: number, since: number): boolean {
    for (const p of this.heights) if (created <= p && p < since) return true;
    return false;
  }

  /** The newest pin at or below `height`; undefined when none. */
  newestAtOrBelow(height: number): number | undefined {
    let best: number | undefined;
    for (const p of this.heights) if (p <= height && (best === undefined || p > best)) best = p;
    return best;
  }
}

/** The store key of an old value kept for pins. */
export function archiveKey(vh: Uint8Array, key: Uint8Array): Uint8Array {
  assert(vh.length === TREE_HASH_BYTES, `archive: a ${vh.length}-byte value hash`);
  const out = new Uint8Array(2 + TREE_HASH_BYTES + key.length);
  out[0] = STATE_TREE_PREFIX;
  out[1] = ARCHIVE_SPACE;
  out.set(vh, 2);
  out.set(key, 2 + TREE_HASH_BYTES);
  return out;
}

export function archivePrefix(): Uint8Array {
  return Uint8Array.of(STATE_TREE_PREFIX, ARCHIVE_SPACE);
}

export function parseArchiveKey(k: Uint8Array): { valueHash: Uint8Array; key: Uint8Array } {
  assert(k.length > 2 + TREE_HASH_BYTES && k[1] === ARCHIVE_SPACE, 'archive: not an archive key');
  return { valueHash: k.slice(2, 2 + TREE_HASH_BYTES), key: k.slice(2 + TREE_HASH_BYTES) };
}

/**
 * `writes` (a tree update's) without the deletions the pins forbid: the root record of a pinned
 * version, and the nodes a pinned version reads, which stay named in their version's stale records
 * (the stale list is written again with those nodes alone instead of deleted; a per-node record of the
 * earlier form is kept).
 */
export function retainPinned(writes: readonly TreeWrite[], pins: TreePins): readonly TreeWrite[] {
  if (pins.size === 0) return writes;
  const kept = new Set<string>();
  // The nodes a per-node record names; every other node deleted belongs to the pruned version's list.
  const recorded = new Set<string>();
  let list: { key: Uint8Array; since: number } | undefined;
  for (const w of writes) {
    if (w.value !== undefined || w.key[1] !== STALE_SPACE) continue;
    if (isStaleList(w.key)) {
      // An update prunes one version: one list at most.
      assert(list === undefined, 'state tree pins: two stale lists pruned by one update');
      list = { key: w.key, since: staleSince(w.key) };
      continue;
    }
    const { since, node } = parseStaleKey(w.key);
    recorded.add(bytesKey(node));
    if (pins.needs(nodeKeyVersion(node), since)) {
      kept.add(bytesKey(node));
      kept.add(bytesKey(w.key));
    }
  }
  const listed: Uint8Array[] = [];
  if (list !== undefined)
    for (const w of writes) {
      if (w.value !== undefined || w.key[1] !== NODE_SPACE || recorded.has(bytesKey(w.key))) continue;
      if (pins.needs(nodeKeyVersion(w.key), list.since)) {
        kept.add(bytesKey(w.key));
        listed.push(w.key);
      }
    }
  return writes
    .map((w) => {
      if (w.value !== undefined) return w;
      if (w.key[1] === ROOT_SPACE) return pins.has(parseRootKey(w.key)) ? undefined : w;
      if (list !== undefined && w.key === list.key && listed.length > 0)
        return { key: w.key, value: encodeStaleListOf(listed) };
      return kept.has(bytesKey(w.key)) ? undefined : w;
    })
    .filter((w): w is TreeWrite => w !== undefined);
}

/** Whether the tree at `version` holds exactly (key, vh); false when that version is not kept. */
export function holdsAt(tree: StateTree, key: Uint8Array, vh: Uint8Array, version: number): boolean {
  let leaf: { keyHash: Uint8Array; valueHash: Uint8Array } | undefined;
  try {
    leaf = tree.prove(key, version).leaf;
  } catch (e) {
    if (e instanceof StateTreeVersionError) return false;
    throw e;
  }
  return leaf !== undefined && bytesEqual(leaf.keyHash, keyHash(key)) && bytesEqual(leaf.valueHash, vh);
}

/**
 * The archive writes of a block applied on `tree` (at the version before it): the previous values of
 * the rows it overwrites or deletes that the newest pin at or below the tree's version holds.
 */
export function archiveWrites(
  overwritten: readonly { key: Uint8Array; before: Uint8Array }[],
  tree: StateTree,
  pins: TreePins,
): TreeWrite[] {
  const pin = pins.newestAtOrBelow(tree.version);
  if (pin === undefined) return [];
  const out: TreeWrite[] = [];
  for (const c of overwritten) {
    const vh = valueHash(c.before);
    if (pin === tree.version || holdsAt(tree, c.key, vh, pin))
      out.push({ key: archiveKey(vh, c.key), value: c.before.slice() });
  }
  return out;
}

/** What `retentionGc` reads: the state store's ordered entries. */
export interface EntryReader {
  entries(prefix: Uint8Array): Iterable<{ key: Uint8Array; value: Uint8Array }>;
}

/**
 * The deletions that drop what no pin needs any more (after an unpin), for the block that makes
 * `version` current: roots of versions older than the window, retained nodes with their stale records,
 * and old values no pin at or below the tree's version holds.
 */
export function retentionGc(
  store: EntryReader,
  tree: StateTree,
  pins: TreePins,
  version: number,
  versionsKept: number,
): TreeWrite[] {
  const floor = version - versionsKept;
  const out: TreeWrite[] = [];
  for (const { key } of store.entries(rootPrefix())) {
    const r = parseRootKey(key);
    if (r < floor && !pins.has(r)) out.push({ key, value: undefined });
  }
  for (const { key, value } of store.entries(stalePrefix())) {
    const since = staleSince(key);
    if (since >= floor) break; // sorted by version: the rest is the window's normal pruning
    const nodes = staleRecordNodes(key, value);
    const needed: Uint8Array[] = [];
    for (const node of nodes) {
      assert(node[1] === NODE_SPACE, 'archive: a stale record of something else than a node');
      if (pins.needs(nodeKeyVersion(node), since)) needed.push(node);
      else out.push({ key: node, value: undefined });
    }
    // A record still naming a node some pin reads stays, naming only those.
    if (needed.length === 0) out.push({ key, value: undefined });
    else if (needed.length < nodes.length) out.push({ key, value: encodeStaleListOf(needed) });
  }
  const held = pins.list().filter((p) => p <= tree.version);
  for (const { key: k } of store.entries(archivePrefix())) {
    const { valueHash: vh, key } = parseArchiveKey(k);
    if (!held.some((p) => holdsAt(tree, key, vh, p))) out.push({ key: k, value: undefined });
  }
  return out;
}

function bytesKey(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; i++) s += String.fromCharCode(b[i]!);
  return s;
}
