// Pinned versions of the state tree (pins.ts): the prune of later blocks keeps a pinned version
// readable and provable past the window while an unpinned one goes, a pin added after an update was
// prepared still holds, and the old values kept are exactly those the newest pin holds.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeStaleList, nodeKeyVersion, stalePrefix } from './nodes.js';
import { archiveKey, archiveWrites, retentionGc, TreePins } from './pins.js';
import { verifyStateProof } from './proof.js';
import {
  EMPTY_TREE_VERSION,
  MemoryNodeStore,
  memoryTree,
  type StateTree,
  StateTreeVersionError,
  StateTree as Tree,
  type TreeWrite,
} from './tree.js';

const utf8 = new TextEncoder();
const k = (s: string) => utf8.encode(s);
const v = (n: number) => Uint8Array.of(n);

/** Version 1 holds a, b and c; every later version changes `a` (and `b` at version 3). */
function grow(tree: StateTree, upTo: number, roots: Map<number, Uint8Array>, pinAfterPrepare?: () => void) {
  for (let ver = tree.version + 1; ver <= upTo; ver++) {
    const changes =
      ver === 1
        ? [
            { key: k('a'), value: v(1) },
            { key: k('b'), value: v(1) },
            { key: k('c'), value: v(1) },
          ]
        : [{ key: k('a'), value: v(ver) }, ...(ver === 3 ? [{ key: k('b'), value: v(3) }] : [])];
    const u = tree.prepare(changes, ver);
    if (ver === upTo) pinAfterPrepare?.();
    tree.apply(u);
    roots.set(ver, tree.stateRoot());
  }
}

describe('state tree pins', () => {
  it('keeps a pinned version provable past the window; the unpinned neighbours are pruned', () => {
    const pins = new TreePins([2]);
    const tree = memoryTree({ versionsKept: 2, pins });
    const roots = new Map<number, Uint8Array>();
    grow(tree, 9, roots);
    for (const [key, value] of [
      ['a', v(2)],
      ['b', v(1)],
      ['c', v(1)],
    ] as const)
      assert.ok(verifyStateProof(roots.get(2)!, k(key), value, tree.prove(k(key), 2)), `${key} at 2`);
    for (const ver of [1, 3, 6])
      assert.throws(() => tree.prove(k('a'), ver), StateTreeVersionError, `${ver}`);
    assert.ok(verifyStateProof(roots.get(9)!, k('a'), v(9), tree.prove(k('a'))));
    // Control: without the pin, version 2 is pruned like the others.
    const plain = memoryTree({ versionsKept: 2 });
    grow(plain, 9, new Map());
    assert.throws(() => plain.prove(k('a'), 2), StateTreeVersionError);
  });

  it('holds a pin added after the update that prunes its version was prepared', () => {
    const pins = new TreePins();
    const tree = memoryTree({ versionsKept: 2, pins });
    const roots = new Map<number, Uint8Array>();
    grow(tree, 4, roots);
    // Version 5 prunes version 2 (5 - 2 - 1); the pin arrives between its prepare and its apply.
    grow(tree, 5, roots, () => pins.add(2));
    grow(tree, 8, roots);
    assert.ok(verifyStateProof(roots.get(2)!, k('b'), v(1), tree.prove(k('b'), 2)));
  });

  it('keeps the old values the newest pin holds, and no others', () => {
    const pins = new TreePins([2]);
    const tree = memoryTree({ versionsKept: 2, pins });
    grow(tree, 4, new Map());
    // At version 4: a = 4 (not the pin's value), b = 3 (not the pin's: b was 1 at 2), c = 1 (the pin's).
    const w = archiveWrites(
      [
        { key: k('a'), before: v(4) },
        { key: k('b'), before: v(3) },
        { key: k('c'), before: v(1) },
      ],
      tree,
      pins,
    );
    assert.deepEqual(
      w.map((x) => x.key),
      [archiveKey(tree.prove(k('c'), 2).leaf!.valueHash, k('c'))],
    );
    // A pin at the current version keeps every overwritten value without a proof walk.
    pins.add(4);
    assert.equal(archiveWrites([{ key: k('a'), before: v(4) }], tree, pins).length, 1);
    assert.equal(archiveWrites([{ key: k('a'), before: v(4) }], tree, new TreePins()).length, 0);
  });
});

describe('state tree pins: stale lists', () => {
  it("after an unpin, drops the nodes only it read and writes the other pin's list again with its own", () => {
    // Every write kept as the state store would hold it, for retentionGc's ordered scan.
    const store = new MemoryNodeStore();
    const all = new Map<string, { key: Uint8Array; value: Uint8Array }>();
    const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
    const put = (writes: readonly TreeWrite[]) => {
      store.put(writes);
      for (const w of writes)
        if (w.value === undefined) all.delete(hex(w.key));
        else all.set(hex(w.key), { key: w.key, value: w.value });
    };
    const entries = (prefix: Uint8Array) =>
      [...all.keys()]
        .filter((h) => h.startsWith(hex(prefix)))
        .sort()
        .map((h) => all.get(h)!);
    const pins = new TreePins([2, 3]);
    const tree = new Tree(store, EMPTY_TREE_VERSION, undefined, { versionsKept: 2, pins, writeThrough: put });
    const rows = Array.from({ length: 10 }, (_, i) => k(`r${i}`));
    const steps = [
      rows.map((key) => ({ key, value: v(1) })),
      [{ key: rows[0]!, value: v(2) }],
      [{ key: rows[1]!, value: v(3) }],
      [
        { key: rows[0]!, value: v(4) },
        { key: rows[1]!, value: v(4) },
      ],
    ];
    const roots = new Map<number, Uint8Array>();
    for (let ver = 1; ver <= 9; ver++) {
      tree.apply(tree.prepare(steps[ver - 1] ?? [{ key: rows[9]!, value: v(ver) }], ver));
      roots.set(ver, tree.stateRoot());
    }
    // Version 4 left stale nodes written at 2 (r0's path, read by both pins) and at 3 (r1's, by pin 3 only).
    const before = decodeStaleList(entries(stalePrefix(4))[0]!.value)!;
    assert.ok(before.some((n) => nodeKeyVersion(n) === 3) && before.some((n) => nodeKeyVersion(n) <= 2));
    pins.delete(3);
    put(retentionGc({ entries }, tree, pins, 10, 2));
    const after = entries(stalePrefix(4));
    assert.equal(after.length, 1);
    const kept = decodeStaleList(after[0]!.value)!;
    assert.deepEqual(kept.map(hex), before.filter((n) => nodeKeyVersion(n) <= 2).map(hex));
    for (const n of before) assert.equal(store.get(n) !== undefined, nodeKeyVersion(n) <= 2, hex(n));
    // Pin 2 still proves what it held.
    assert.ok(verifyStateProof(roots.get(2)!, rows[0]!, v(2), tree.prove(rows[0]!, 2)));
    assert.ok(verifyStateProof(roots.get(2)!, rows[1]!, v(1), tree.prove(rows[1]!, 2)));
  });
});
