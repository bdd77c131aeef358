import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { seededRandom } from '../../../test/helpers/bad-values.js';
import { bytesEqual, toHex } from '../../util/hex.js';
import { EMPTY_SUBTREE, keyHash, leafHash, stateRootOf, stateRootVersion, valueHash } from './hash.js';
import { decodeStaleList, isStaleList, nodeKeyVersion, staleKey, staleSince } from './nodes.js';
import { decodeStateProof, encodeStateProof, type StateProof, verifyStateProof } from './proof.js';
import {
  EMPTY_TREE_VERSION,
  MemoryNodeStore,
  memoryTree,
  StateTree,
  StateTreeVersionError,
  type TreeChange,
  topNodesDepth,
} from './tree.js';

const utf8 = new TextEncoder();
const k = (s: string) => utf8.encode(s);

/** A tree holding exactly `rows`, built in one update. */
function fromScratch(rows: ReadonlyMap<string, Uint8Array>, version = 1): StateTree {
  const t = memoryTree();
  t.apply(
    t.prepare(
      [...rows].map(([key, value]) => ({ key: k(key), value })),
      version,
    ),
  );
  return t;
}

/** A seeded generator with the few draws these tests use (the state layer does not import the simulator). */
class Prng {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = seededRandom(seed);
  }
  float(): number {
    return this.next();
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(0, xs.length - 1)]!;
  }
}

function randomValue(rng: Prng): Uint8Array {
  return Uint8Array.from({ length: rng.int(1, 40) }, () => rng.int(0, 255));
}

function rowsOf(n: number, rng: Prng): Map<string, Uint8Array> {
  const m = new Map<string, Uint8Array>();
  for (let i = 0; i < n; i++) m.set(`\u0002acct-${i}@d`, randomValue(rng));
  return m;
}

describe('state tree: proofs', () => {
  const rng = new Prng(7);
  const rows = rowsOf(300, rng);
  const tree = fromScratch(rows);
  const root = tree.stateRoot();

  it('the root is a version-2 state root, and the empty and one-row trees have the documented roots', () => {
    assert.equal(stateRootVersion(root), 2);
    assert.deepEqual(memoryTree().stateRoot(), stateRootOf(EMPTY_SUBTREE));
    const one = fromScratch(new Map([['a', Uint8Array.of(1)]]));
    assert.deepEqual(one.stateRoot(), stateRootOf(leafHash(keyHash(k('a')), valueHash(Uint8Array.of(1)))));
  });

  it('every present key has an inclusion proof that verifies, and survives its binary form', () => {
    for (const [key, value] of rows) {
      const proof = tree.prove(k(key));
      assert.ok(verifyStateProof(root, k(key), value, proof), key);
      const back = decodeStateProof(encodeStateProof(proof));
      assert.ok(back !== undefined && verifyStateProof(root, k(key), value, back));
      // The same proof does not show the key absent, nor holding another value.
      assert.equal(verifyStateProof(root, k(key), undefined, proof), false);
      assert.equal(verifyStateProof(root, k(key), Uint8Array.of(...value, 0), proof), false);
    }
  });

  it('absent keys have exclusion proofs (ending in an empty subtree or in another leaf) that verify', () => {
    let viaLeaf = 0;
    let viaEmpty = 0;
    for (let i = 0; i < 300; i++) {
      const key = k(`\u0002absent-${i}`);
      const proof = tree.prove(key);
      assert.ok(verifyStateProof(root, key, undefined, proof));
      assert.equal(verifyStateProof(root, key, Uint8Array.of(1), proof), false);
      if (proof.leaf === undefined) viaEmpty++;
      else viaLeaf++;
    }
    assert.ok(viaLeaf > 0 && viaEmpty > 0, `exclusions via leaf ${viaLeaf}, via empty subtree ${viaEmpty}`);
    // The empty tree proves every key absent with no siblings.
    const empty = memoryTree();
    const p = empty.prove(k('x'));
    assert.deepEqual(p, { leaf: undefined, siblings: [] });
    assert.ok(verifyStateProof(empty.stateRoot(), k('x'), undefined, p));
  });

  it('refuses a tampered value, sibling, path (key), leaf or root', () => {
    const [key, value] = [...rows][17]!;
    const proof = tree.prove(k(key));
    assert.ok(proof.siblings.length > 3);
    const flip = (b: Uint8Array, i = 0) => {
      const c = b.slice();
      c[i]! ^= 1;
      return c;
    };
    assert.equal(verifyStateProof(root, k(key), flip(value), proof), false, 'value');
    for (let i = 0; i < proof.siblings.length; i++) {
      const siblings = proof.siblings.map((s, j) => (j === i ? flip(s, 5) : s));
      assert.equal(verifyStateProof(root, k(key), value, { ...proof, siblings }), false, `sibling ${i}`);
    }
    const swapped = [...proof.siblings];
    [swapped[0], swapped[1]] = [swapped[1]!, swapped[0]!];
    assert.equal(verifyStateProof(root, k(key), value, { ...proof, siblings: swapped }), false, 'order');
    assert.equal(
      verifyStateProof(root, k(key), value, { ...proof, siblings: proof.siblings.slice(1) }),
      false,
      'short',
    );
    assert.equal(
      verifyStateProof(root, k(key), value, { ...proof, siblings: [...proof.siblings, EMPTY_SUBTREE] }),
      false,
      'padded',
    );
    // The proof of one key is no proof for another key (a different path), present or absent.
    const [other, otherValue] = [...rows][18]!;
    assert.equal(verifyStateProof(root, k(other), otherValue, proof), false, 'path');
    assert.equal(verifyStateProof(root, k(other), undefined, proof), false, 'path, absent');
    const leaf = proof.leaf!;
    assert.equal(
      verifyStateProof(root, k(key), value, { ...proof, leaf: { ...leaf, keyHash: flip(leaf.keyHash) } }),
      false,
      'leaf key',
    );
    assert.equal(verifyStateProof(flip(root, 3), k(key), value, proof), false, 'root');
    // A version-1 style root (lowest bit set) never matches.
    assert.equal(verifyStateProof(flip(root, 31), k(key), value, proof), false, 'root version');
    // An exclusion proof turned into "leaf absent" for a present key is refused.
    assert.equal(verifyStateProof(root, k(key), undefined, { ...proof, leaf: undefined }), false);
  });

  it('decodes only canonical, complete proof bytes', () => {
    const proof = tree.prove(k([...rows.keys()][3]!));
    const bytes = encodeStateProof(proof);
    assert.equal(decodeStateProof(bytes.subarray(0, bytes.length - 1)), undefined);
    assert.equal(decodeStateProof(Uint8Array.of(...bytes, 0)), undefined);
    const badFormat = bytes.slice();
    badFormat[0] = 2;
    assert.equal(decodeStateProof(badFormat), undefined);
    // An EMPTY_SUBTREE sibling written out in full instead of through the bitmap.
    const withEmpty: StateProof = { leaf: undefined, siblings: [EMPTY_SUBTREE] };
    const enc = encodeStateProof(withEmpty);
    assert.equal(enc.length, 2 + 2 + 1);
    const longForm = Uint8Array.of(1, 0, 0, 1, 0, ...EMPTY_SUBTREE);
    assert.equal(decodeStateProof(longForm), undefined);
    assert.deepEqual(decodeStateProof(enc), withEmpty);
  });
});

describe('state tree: updates', () => {
  it('a tree updated over many random blocks equals the tree built from scratch, at every block', () => {
    const rng = new Prng(20_261_129);
    const live = new Map<string, Uint8Array>();
    const tree = memoryTree({ versionsKept: 8 });
    const roots: Uint8Array[] = [];
    for (let block = 1; block <= 60; block++) {
      const changes = new Map<string, Uint8Array | undefined>();
      const n = rng.int(0, 25);
      for (let i = 0; i < n; i++) {
        const existing = [...live.keys()];
        const r = rng.float();
        if (r < 0.25 && existing.length > 0) changes.set(rng.pick(existing), undefined);
        else if (r < 0.5 && existing.length > 0) changes.set(rng.pick(existing), randomValue(rng));
        else changes.set(`\u0004asset-${rng.int(0, 400)}`, randomValue(rng));
      }
      const list: TreeChange[] = [];
      for (const [key, value] of changes) {
        if (value === undefined && !live.has(key)) continue;
        list.push({ key: k(key), value });
        if (value === undefined) live.delete(key);
        else live.set(key, value);
      }
      tree.apply(tree.prepare(list, block));
      roots.push(tree.stateRoot());
      assert.equal(toHex(tree.stateRoot()), toHex(fromScratch(live, block).stateRoot()), `block ${block}`);
    }
    assert.ok(live.size > 50);
    // Proofs against the kept recent versions still verify; pruned ones are refused, not misproved.
    const probe = k([...live.keys()][0]!);
    for (let v = 60 - 8; v <= 60; v++) {
      const p = tree.prove(probe, v);
      const present = verifyStateProof(roots[v - 1]!, probe, live.get([...live.keys()][0]!), p);
      const absent = verifyStateProof(roots[v - 1]!, probe, undefined, p);
      assert.ok(present || absent || p.leaf !== undefined, `version ${v}`);
      assert.ok(verifyStateProofAny(roots[v - 1]!, probe, p), `version ${v} proof verifies`);
    }
    assert.throws(() => tree.prove(probe, 40), StateTreeVersionError);
  });

  it('keeps only the kept versions: pruning bounds the stored nodes while rows keep changing', () => {
    const run = (versionsKept: number) => {
      const store = new MemoryNodeStore();
      const tree = new StateTree(store, 0, undefined, { versionsKept, writeThrough: (w) => store.put(w) });
      const rows = Array.from({ length: 64 }, (_, i) => ({ key: k(`r${i}`), value: Uint8Array.of(i) }));
      tree.apply(tree.prepare(rows, 1));
      const sizes: number[] = [store.size];
      for (let v = 2; v <= 60; v++) {
        tree.apply(tree.prepare([{ key: k(`r${v % 64}`), value: Uint8Array.of(v, v) }], v));
        sizes.push(store.size);
      }
      return sizes;
    };
    const pruned = run(4);
    const kept = run(1000);
    // 64 leaves, their inner nodes and a root; each version adds one path (≈ 8 nodes) and a root.
    const first = pruned[0]!;
    assert.equal(kept[0], first);
    assert.ok(Math.max(...pruned) < first + 6 * 12, `pruned sizes ${pruned.join(',')}`);
    assert.ok(kept[kept.length - 1]! > first + 59 * 5, `unpruned sizes ${kept.join(',')}`);
  });

  it('does not depend on the order rows were written in, nor on how they were split into blocks', () => {
    const rng = new Prng(99);
    const rows = rowsOf(200, rng);
    const entries = [...rows];
    const a = fromScratch(rows).stateRoot();
    const reversed = fromScratch(new Map(entries.reverse())).stateRoot();
    assert.deepEqual(reversed, a);
    for (let trial = 0; trial < 5; trial++) {
      const shuffled = [...rows].sort(() => rng.float() - 0.5);
      const t = memoryTree();
      let v = 1;
      for (let i = 0; i < shuffled.length; ) {
        const n = rng.int(1, 30);
        t.apply(
          t.prepare(
            shuffled.slice(i, i + n).map(([key, value]) => ({ key: k(key), value })),
            v++,
          ),
        );
        i += n;
      }
      assert.deepEqual(t.stateRoot(), a, `trial ${trial}`);
    }
    // Deleting every row gives the empty tree again.
    const t = fromScratch(rows);
    t.apply(t.prepare([...rows.keys()].map((key) => ({ key: k(key), value: undefined }))));
    assert.deepEqual(t.stateRoot(), memoryTree().stateRoot());
  });

  it('an update is pure until applied, and one prepared against an older version is refused', () => {
    const t = fromScratch(new Map([['a', Uint8Array.of(1)]]));
    const before = t.stateRoot();
    const u = t.prepare([{ key: k('b'), value: Uint8Array.of(2) }]);
    assert.deepEqual(t.stateRoot(), before);
    assert.ok(!bytesEqual(u.stateRoot, before));
    t.apply(u);
    assert.deepEqual(t.stateRoot(), u.stateRoot);
    assert.throws(() => t.apply(u), /prepared against version 1/);
  });
});

/** Whether `p` verifies `key` under `root` either present (with the leaf's own value hash) or absent. */
function verifyStateProofAny(root: Uint8Array, key: Uint8Array, p: StateProof): boolean {
  if (verifyStateProof(root, key, undefined, p)) return true;
  // Present: the verifier needs the value; check the recomputation through the leaf hash instead.
  return p.leaf !== undefined && bytesEqual(p.leaf.keyHash, keyHash(key));
}

describe('state tree: stored form', () => {
  // Every write (node keys and bytes, stale index, roots, prunes), root and proof of a fixed run of
  // updates with deletes, through both a write-through tree and one whose writes wait for durable(),
  // with small caches and windows: the digest pins the stored form, so a faster walk cannot change it.
  // Changed deliberately once: the stale index became one list record per version instead of one
  // record per node (the nodes, their keys and bytes, the roots and the proofs stayed the same).
  it('a fixed run of updates writes exactly the pinned nodes, stale index and proofs', () => {
    const h = createHash('sha256');
    let seed = 12_345;
    const rnd = () => {
      seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
    for (const mode of ['write-through', 'pending']) {
      const store = new MemoryNodeStore();
      const t =
        mode === 'write-through'
          ? memoryTree({ versionsKept: 4, cacheNodes: 50 })
          : new StateTree(store, EMPTY_TREE_VERSION, undefined, { versionsKept: 3, cacheNodes: 30 });
      const live = new Set<number>();
      for (let v = 0; v < 60; v++) {
        const n = 1 + Math.floor(rnd() * (v === 0 ? 500 : 60));
        const ids = new Set<number>();
        while (ids.size < n) ids.add(Math.floor(rnd() * 800));
        const ch = [...ids].map((i) => {
          const del = live.has(i) && rnd() < 0.3;
          if (del) live.delete(i);
          else live.add(i);
          return { key: k(`k${i}`), value: del ? undefined : k(`v${i}-${v}-${rnd()}`) };
        });
        const u = t.prepare(ch, v);
        for (const w of u.writes) {
          h.update(w.key);
          h.update(w.value === undefined ? 'DEL' : Buffer.concat([Buffer.from('V'), w.value]));
        }
        t.apply(u);
        if (mode === 'pending') {
          store.put(t.pendingWrites(v));
          if (v % 3 === 2) t.durable(v);
        }
        h.update(t.stateRoot());
        if (v % 7 === 0)
          for (let i = 0; i < 20; i++) {
            const p = t.prove(k(`k${i}`));
            h.update(
              JSON.stringify({
                l: p.leaf ? hex(p.leaf.valueHash) : null,
                s: p.siblings.map(hex),
              }),
            );
          }
      }
    }
    assert.equal(h.digest('hex'), '00cb21e3c76df2d7747dda7a4954bf8260424764c3ee338ebf477682ccb05eaf');
  });
});

describe('state tree: nodes read from a store of Buffers', () => {
  it('decodes hashes into plain Uint8Array copies, not views or Buffers of the store bytes', () => {
    const store = new MemoryNodeStore();
    const t = new StateTree(store, EMPTY_TREE_VERSION, undefined, { cacheNodes: 0 });
    t.apply(
      t.prepare(
        [k('a'), k('b'), k('c')].map((key) => ({ key, value: key })),
        1,
      ),
    );
    store.put(t.pendingWrites(1).map((w) => ({ key: w.key, value: w.value && Buffer.from(w.value) })));
    t.durable(1);
    const p = t.prove(k('a'));
    assert.ok(p.leaf !== undefined && p.siblings.length > 0);
    for (const h of [p.leaf.valueHash, ...p.siblings])
      assert.equal(Object.getPrototypeOf(h), Uint8Array.prototype);
  });
});

describe('state tree: node cache', () => {
  /** A tree of 64 rows made durable in `store`, reopened with an empty cache. */
  function reopened(): { store: MemoryNodeStore; t: StateTree; reads: () => number } {
    const store = new MemoryNodeStore();
    const first = new StateTree(store, EMPTY_TREE_VERSION, undefined, {});
    first.apply(
      first.prepare(
        Array.from({ length: 64 }, (_, i) => ({ key: k(`row-${i}`), value: k(`v${i}`) })),
        1,
      ),
    );
    store.put(first.pendingWrites(1));
    first.durable(1);
    let gets = 0;
    const counting = {
      get: (key: Uint8Array) => {
        gets++;
        return store.get(key);
      },
      staleRecords: (v: number) => store.staleRecords(v),
    };
    const t = StateTree.open(counting, 1, { cacheNodes: 1000 });
    assert.ok(t !== undefined);
    return { store, t, reads: () => gets };
  }

  it("keeps none of the nodes an update reads and replaces, only the update's own once durable", () => {
    const { store, t } = reopened();
    const u = t.prepare([{ key: k('row-5'), value: k('changed') }], 2);
    // The walk read the path of row-5 from the store (every node of it goes stale in this update).
    assert.ok(u.writes.some((w) => w.key[1] === 0x73));
    assert.equal(t.cachedCount(), 0);
    t.apply(u);
    store.put(t.pendingWrites(2));
    t.durable(2);
    assert.equal(t.cachedCount(), u.nodes.size);
  });

  it('holds the top levels by position: a later walk reads none of them from the store, whatever came between', () => {
    // 2,000 rows; a cache of 30 nodes: the top 4 levels (15 positions) by position, 15 more generational.
    const rows = 2_000;
    const cacheNodes = 30;
    assert.equal(topNodesDepth(cacheNodes), 3);
    const store = new MemoryNodeStore();
    const first = new StateTree(store, EMPTY_TREE_VERSION, undefined, {});
    first.apply(
      first.prepare(
        Array.from({ length: rows }, (_, i) => ({ key: k(`row-${i}`), value: k(`v${i}`) })),
        1,
      ),
    );
    store.put(first.pendingWrites(1));
    first.durable(1);
    const shallowReads: number[] = [];
    const counting = {
      get: (key: Uint8Array) => {
        if (key[1] === 0x6e) shallowReads.push((key[10]! << 8) | key[11]!);
        return store.get(key);
      },
      staleRecords: (v: number) => store.staleRecords(v),
    };
    const t = StateTree.open(counting, 1, { cacheNodes, versionsKept: 8 });
    assert.ok(t !== undefined);
    const step = (v: number, from: number) => {
      const u = t.prepare(
        Array.from({ length: 200 }, (_, i) => ({ key: k(`row-${from + i}`), value: k(`v${v}`) })),
        v,
      );
      t.apply(u);
      store.put(t.pendingWrites(v));
      t.durable(v);
    };
    // Version 2 rewrites every position of the top 4 levels; 3 to 5 write ~2,000 nodes each, far more
    // than the generational part holds.
    for (let v = 2; v <= 5; v++) step(v, (v - 2) * 200);
    shallowReads.length = 0;
    step(6, 1_000);
    assert.ok(shallowReads.length > 0, 'the walk read deeper nodes from the store');
    assert.deepEqual(
      shallowReads.filter((d) => d <= 3),
      [],
      'no node of the top 4 levels was read from the store',
    );
    assert.ok(t.cachedCount() <= cacheNodes);
    // Older versions still prove against their own nodes (a position's newer node never answers for them).
    const uncached = StateTree.open(store, 6, { cacheNodes: 0, versionsKept: 8 });
    assert.ok(uncached !== undefined);
    for (const v of [2, 4, 6])
      for (const row of ['row-3', 'row-450', 'row-1100', 'absent'])
        assert.deepEqual(t.prove(k(row), v), uncached.prove(k(row), v));
  });

  it('keeps the nodes a proof reads: the same proof again reads nothing from the store', () => {
    const { t, reads } = reopened();
    const p1 = t.prove(k('row-7'));
    const after = reads();
    assert.ok(after > 1);
    assert.ok(t.cachedCount() > 0);
    const p2 = t.prove(k('row-7'));
    assert.equal(reads(), after);
    assert.deepEqual(p2, p1);
  });
});

describe('state tree: key strings of an update', () => {
  it("names every write's key (nodes, root, stale index, prunes) by its bytes, one char per byte", () => {
    const t = memoryTree({ versionsKept: 2 });
    for (let v = 0; v < 5; v++) {
      const u = t.prepare(
        Array.from({ length: 40 }, (_, i) => ({ key: k(`row-${(i * 7 + v) % 60}`), value: k(`v${v}`) })),
        v,
      );
      assert.ok(v < 3 || u.writes.some((w) => w.value === undefined)); // prunes from version 3 on
      assert.deepEqual(
        u.keys,
        u.writes.map((w) => Buffer.from(w.key).toString('latin1')),
      );
      t.apply(u);
    }
  });
});

describe('state tree: stale list', () => {
  const rows = (n: number, tag: string) =>
    Array.from({ length: n }, (_, i) => ({ key: k(`row-${i}`), value: k(`${tag}-${i}`) }));

  it('files the nodes an update replaces as one record, and its prune deletes that record and them', () => {
    const t = memoryTree({ versionsKept: 2 });
    t.apply(t.prepare(rows(200, 'a'), 1));
    const u = t.prepare(rows(40, 'b'), 2);
    const stale = u.writes.filter((w) => w.key[1] === 0x73);
    // One record, under the version's stale prefix, for every node the 40 changed rows replaced.
    assert.equal(stale.length, 1);
    assert.ok(isStaleList(stale[0]!.key) && staleSince(stale[0]!.key) === 2);
    const listed = decodeStaleList(stale[0]!.value!)!;
    assert.ok(listed.length > 40);
    assert.ok(listed.every((n) => n[1] === 0x6e && nodeKeyVersion(n) === 1));
    t.apply(u);
    t.apply(t.prepare(rows(1, 'c'), 3));
    // Version 4 prunes what went stale at 2: the listed nodes, then the list itself.
    const p = t.prepare(rows(1, 'd'), 4);
    const deleted = p.writes.filter((w) => w.value === undefined).map((w) => toHex(w.key));
    for (const n of listed) assert.ok(deleted.includes(toHex(n)));
    assert.ok(deleted.includes(toHex(stale[0]!.key)));
  });

  it('opens a store whose stale index is one record per node (the earlier form) and prunes it', () => {
    const store = new MemoryNodeStore();
    const first = new StateTree(store, EMPTY_TREE_VERSION, undefined, { versionsKept: 2 });
    // Versions 1..3 stored as the earlier form: each stale list written as one empty record per node.
    const legacy: Uint8Array[] = [];
    for (let v = 1; v <= 3; v++) {
      first.apply(first.prepare(rows(v === 1 ? 100 : 20, `v${v}`), v));
      store.put(
        first.pendingWrites(v).flatMap((w) => {
          if (w.value === undefined || !isStaleList(w.key)) return [w];
          const nodes = decodeStaleList(w.value)!;
          legacy.push(...nodes);
          return nodes.map((n) => ({ key: staleKey(staleSince(w.key), n), value: new Uint8Array(0) }));
        }),
      );
      first.durable(v);
    }
    assert.ok(legacy.length > 20 && legacy.every((n) => store.get(n) !== undefined));
    const t = StateTree.open(store, 3, { versionsKept: 2 });
    assert.ok(t !== undefined);
    for (let v = 4; v <= 6; v++) {
      t.apply(t.prepare(rows(5, `v${v}`), v));
      store.put(t.pendingWrites(v));
      t.durable(v);
    }
    // Versions 4..6 pruned what went stale at 2 and 3: every node those per-node records named, and the records.
    for (const n of legacy) assert.equal(store.get(n), undefined, toHex(n));
    for (const v of [2, 3]) assert.equal([...store.staleRecords(v)].length, 0);
    for (const [i, r] of rows(100, 'x').entries()) {
      const p = t.prove(r.key);
      assert.ok(p.leaf !== undefined, `row ${i}`);
      assert.ok(verifyStateProofAny(t.stateRoot(), r.key, p));
    }
  });
});
