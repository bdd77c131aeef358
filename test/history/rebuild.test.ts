// The history indexes are derived state: `torana rebuild` (which deletes the state store and replays every
// block) writes exactly the entries commit wrote, and a restarted node answers the history routes as before.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { rebuild } from '../../src/cli/node-actions.js';
import { nodeFiles } from '../../src/node/files.js';
import { serveNode } from '../../src/node/serve.js';
import {
  TX_BY_ACCOUNT_PREFIX,
  TX_BY_ASSET_PREFIX,
  TX_BY_DEFINITION_PREFIX,
  TX_BY_HASH_PREFIX,
} from '../../src/pipeline/tx-index.js';
import { StateStore } from '../../src/storage/state-store.js';
import { toHex } from '../../src/util/hex.js';
import { type AppFixture, alice, enc, rose, startAppFixture } from '../gateway/app-fixture.js';

const INDEXES = [TX_BY_ASSET_PREFIX, TX_BY_DEFINITION_PREFIX, TX_BY_ACCOUNT_PREFIX, TX_BY_HASH_PREFIX];

/** Every index entry of the node's state store, key → value in hex. */
async function indexEntries(dir: string): Promise<Map<string, string>> {
  const store = await StateStore.open(nodeFiles(dir).data);
  try {
    const out = new Map<string, string>();
    for (const tag of INDEXES)
      for (const e of store.entries(Uint8Array.of(tag))) out.set(toHex(e.key), toHex(e.value));
    return out;
  } finally {
    await store.close();
  }
}

async function quietly(f: () => Promise<void>): Promise<void> {
  const write = process.stdout.write;
  process.stdout.write = (() => true) as typeof process.stdout.write;
  try {
    await f();
  } finally {
    process.stdout.write = write;
  }
}

describe('history indexes across rebuild and restart', () => {
  let f: AppFixture;
  before(async () => {
    f = await startAppFixture();
  });
  after(async () => f?.t.stopAll());

  const paths = [
    `/v1/accounts/${enc(alice.id)}/transactions`,
    `/v1/accounts/${enc(alice.id)}/transactions?status=rejected`,
    `/v1/assets/definitions/${enc(rose)}/transactions?kind=TransferAsset`,
  ];

  it('rebuild writes the same index entries as commit did; a restart serves the same answers', async () => {
    const answers = await Promise.all(paths.map(async (p) => (await f.get(p)).body));
    assert.equal(answers[0].total, 4);
    await f.t.served.close();
    await f.t.node.stop();
    const committed = await indexEntries(f.t.dir);
    // Every kind of entry is there: hash, account, definition and asset entries.
    for (const tag of INDEXES)
      assert.ok(
        [...committed.keys()].some((k) => k.startsWith(tag.toString(16))),
        tag.toString(16),
      );
    await quietly(() => rebuild({ dir: f.t.dir, json: true }));
    const rebuilt = await indexEntries(f.t.dir);
    assert.deepEqual(rebuilt, committed);

    const node = await f.t.restart();
    const served = await serveNode(node, { dir: f.t.dir });
    f.t.url = served.url;
    f.t.served = served; // the fixture's reads go to this gateway
    try {
      for (const [i, p] of paths.entries()) assert.deepEqual((await f.get(p)).body, answers[i], p);
    } finally {
      await served.close();
    }
  });
});
