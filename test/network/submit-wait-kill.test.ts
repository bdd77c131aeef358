// submitAndWait across a kill -9 of the node it waits on (README "SDK", "Resending and waiting"): a real
// validator process, blocks spaced by `block.min_interval_ms` so that a transaction sits admitted in the
// queue long enough to kill the node under it. Two groups wait at once:
//  - committed, unheard: admitted, then the client's connections are held at a proxy, the block commits
//    (the client cannot have seen its event), the node is killed;
//  - admitted, uncommitted: admitted (202), then the node is killed with them only in its queue (the
//    queue is not persisted: they are gone from the restarted node).
// The node restarts on the same port; every submitAndWait must resolve with the committed block height.
// None may report an error (events_gone, a lost connection, a timeout): a client told so may sign again.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { renderConfigToml } from '../../src/config/load.js';
import { nodeFiles } from '../../src/node/files.js';
import { loadNodeConfig } from '../../src/node/load-config.js';
import { ToranaClient } from '../../src/sdk/client.js';
import { instructions as ix } from '../../src/sdk/instructions.js';
import type { BuiltTransaction } from '../../src/sdk/transaction.js';
import { writeFileAtomic } from '../../src/util/atomic-file.js';
import { type CutProxy, startCutProxy } from '../helpers/cut-proxy.js';
import { TestNetwork } from '../helpers/network.js';
import { waitUntil } from '../helpers/network-scenario.js';

/** Blocks at most this often: the window in which admitted transactions wait in the queue. */
const BLOCK_INTERVAL_MS = 10_000;
const GROUP = 3;
const WAIT_MS = 60_000;

/** Rewrites the peer's config.toml with blocks as soon as transactions wait, keeping every other key. */
async function restPace(dir: string): Promise<void> {
  const overrides = { 'block.min_interval_ms': 0, 'block.time_ms': 1_000 };
  const config = await loadNodeConfig({ dir, overrides });
  await writeFileAtomic(nodeFiles(dir).config, renderConfigToml(config, { onlyNonDefault: true }), 0o600);
}

type Settled = { hash: string; blockHeight?: number; error?: string };

describe('submitAndWait when the node it waits on is killed and restarted', () => {
  let net: TestNetwork;
  let proxy: CutProxy;
  before(async () => {
    net = await TestNetwork.create({
      validators: 1,
      observers: 0,
      config: { 'block.min_interval_ms': BLOCK_INTERVAL_MS, 'block.time_ms': BLOCK_INTERVAL_MS },
    });
    await net.start();
    proxy = await startCutProxy(net.peer(0).url);
  });
  after(async () => {
    await proxy?.close();
    await net?.stop();
  });

  it('reports the committed block height of every transaction, none as an error', async () => {
    const t0 = Date.now();
    const step = (what: string) => console.log(`${((Date.now() - t0) / 1000).toFixed(1)} s: ${what}`);
    const admin = await net.admin();
    const base = { chainId: net.manifest.chainId, account: admin.id, signer: admin.key };
    const direct = new ToranaClient({ ...base, url: net.peer(0).url });
    const proxied = new ToranaClient({ ...base, url: proxy.url });
    const statusOf = async (hash: string) => {
      try {
        return (await direct.transactionStatus(hash)).status;
      } catch {
        return 'none';
      }
    };
    const allAre = (txs: BuiltTransaction[], status: string) => async () =>
      (await Promise.all(txs.map((t) => statusOf(t.hash)))).every((s) => s === status);
    const wait = (client: ToranaClient, tx: BuiltTransaction): Promise<Settled> =>
      client.submitAndWait(tx, { timeoutMs: WAIT_MS }).then(
        (r) => ({ hash: tx.hash, blockHeight: r.blockHeight }),
        (e: Error) => ({ hash: tx.hash, error: `${e.name}: ${e.message}` }),
      );
    const build = (client: ToranaClient, label: string, nonce: number) =>
      client.build([ix.log(`${label} ${nonce}`)], { nonce });

    // A block now, so the next one cannot start before BLOCK_INTERVAL_MS.
    const warmUp = await build(direct, 'warm-up', 1);
    await direct.submit(warmUp);
    await waitUntil('the warm-up block', 30_000, allAre([warmUp], 'Committed'));

    step('warm-up committed');
    // Committed, unheard: the client reaches the node through the proxy, held once the 202s are in.
    const unheard = await Promise.all([...Array(GROUP).keys()].map((i) => build(proxied, 'unheard', 10 + i)));
    const unheardResults = Promise.all(unheard.map((tx) => wait(proxied, tx)));
    await waitUntil('the first group admitted', BLOCK_INTERVAL_MS, allAre(unheard, 'Queued'));
    await new Promise((r) => setTimeout(r, 300)); // the 202 answers on their way back through the proxy
    const held = proxy.holdAll();
    await waitUntil('the first group committed', 3 * BLOCK_INTERVAL_MS, allAre(unheard, 'Committed'));
    const committedHeight = (await direct.status()).blocks;

    step('first group committed');
    // Admitted, uncommitted: the next block is BLOCK_INTERVAL_MS away.
    const queued = await Promise.all([...Array(GROUP).keys()].map((i) => build(direct, 'queued', 20 + i)));
    const queuedResults = Promise.all(queued.map((tx) => wait(direct, tx)));
    await waitUntil('the second group admitted', BLOCK_INTERVAL_MS, allAre(queued, 'Queued'));

    step('second group admitted');
    const exit = await net.peer(0).kill9();
    assert.equal(exit?.signal, 'SIGKILL');
    proxy.cutAll();
    console.log(`killed at height ${committedHeight} (${held} connections held at the proxy)`);
    // It comes back at the usual pace (blocks as soon as transactions wait): only the kill is tested.
    await restPace(net.peer(0).dir);
    net.peer(0).start();
    await net.peer(0).waitReady();

    step('restarted');
    const results = [...(await unheardResults), ...(await queuedResults)];
    step('every wait ended');
    for (const r of results) console.log(`${r.hash.slice(0, 12)} → ${r.error ?? `height ${r.blockHeight}`}`);
    const errors = results.filter((r) => r.error !== undefined);
    assert.deepEqual(errors, [], 'no transaction is reported as an error');
    for (const r of results.slice(0, GROUP)) assert.ok(r.blockHeight! <= committedHeight, JSON.stringify(r));
    for (const r of results.slice(GROUP)) assert.ok(r.blockHeight! > committedHeight, JSON.stringify(r));
    for (const r of results) assert.equal(await statusOf(r.hash), 'Committed', r.hash);
  });
});
