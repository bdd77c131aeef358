// `torana rebuild` (the CLI's rebuild action: delete the state store, replay every block) gives back the
// state tree of every height: the stored root of each version equals the state root (header version 2)
// the committed header of that height names, and a restart on the rebuilt store serves the same tip root.
// One node, a few blocks that register, mint, transfer and delete rows (so versions differ).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { rebuild } from '../../src/cli/node-actions.js';
import { nodeFiles } from '../../src/node/files.js';
import { openStoredTree } from '../../src/pipeline/state-tree-store.js';
import { instructions as ix } from '../../src/sdk/instructions.js';
import { accountOf, generateKeyPair } from '../../src/sdk/keys.js';
import { stateRootVersion } from '../../src/state/merkle/hash.js';
import { StateStore } from '../../src/storage/state-store.js';
import { toHex } from '../../src/util/hex.js';
import { run, startTestNode, type TestNode } from '../helpers/node.js';

async function captured(f: () => Promise<void>): Promise<string> {
  const write = process.stdout.write;
  let out = '';
  process.stdout.write = ((s: string) => {
    out += s;
    return true;
  }) as typeof process.stdout.write;
  try {
    await f();
  } finally {
    process.stdout.write = write;
  }
  return out;
}

describe('torana rebuild and the state tree', () => {
  let t: TestNode;
  before(async () => {
    t = await startTestNode();
  });
  after(async () => t.cleanup());

  it('rebuilds a tree whose root at every height is the committed header state root', async () => {
    const bob = accountOf(generateKeyPair(), 'wonderland');
    const steps = [
      [
        ix.registerDomain('wonderland'),
        ix.registerAccount(bob),
        ix.registerAssetDefinition('rose#wonderland'),
      ],
      [ix.mintAsset('rose#wonderland', bob, '10')],
      [ix.registerDomain('gone')],
      [ix.mintAsset('rose#wonderland', t.admin.id, '3'), ix.unregisterDomain('gone')],
      [ix.transferAsset('rose#wonderland', t.admin.id, bob, '1')],
    ];
    for (const s of steps) assert.equal((await run(t, t.admin, s)).status.kind, 'Committed');
    const tip = t.node.ledger.height();
    const headerRoots: string[] = [];
    for (let h = 1; h <= tip; h++) {
      const root = (await t.node.ledger.block(h))!.header.stateRoot;
      assert.equal(stateRootVersion(root), 2, `header ${h} names the tree root`);
      headerRoots.push(toHex(root));
    }
    assert.equal(new Set(headerRoots).size, tip, 'every height has its own root');
    await t.node.stop();

    const out = await captured(() => rebuild({ dir: t.dir, json: true }));
    const report = JSON.parse(out) as { replayed_blocks: number; state_root: string };
    assert.equal(report.replayed_blocks, tip);
    assert.equal(report.state_root, headerRoots[tip - 1]);

    const store = await StateStore.open(nodeFiles(t.dir).data);
    try {
      for (let h = 1; h <= tip; h++) {
        const { tree, built } = openStoredTree(store, h, {});
        assert.equal(built, false, `the rebuilt store holds the tree of height ${h}`);
        assert.equal(toHex(tree.stateRoot()), headerRoots[h - 1], `state root at height ${h}`);
      }
    } finally {
      await store.close();
    }
    const node = await t.restart();
    assert.equal(node.openReport.replayedBlocks, 0);
    assert.equal(toHex(node.ledger.state.stateRoot()), headerRoots[tip - 1]);
  });
});
