// Pinned versions of the state tree (pins.ts): the prune of later blocks keeps a pinned version
// readable and provable past the window while an unpinned one goes, a pin added after an update was
// prepared still holds, and the old values kept are exactly those the newest pin holds.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { archiveKey, archiveWrites, TreePins } from './pins.js';
import { verifyStateProof } from './proof.js';
import { memoryTree, type StateTree, StateTreeVersionError } from './tree.js';

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
