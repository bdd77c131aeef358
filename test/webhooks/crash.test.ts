// Webhook durability across kill -9: a real `torana start` process commits
// transactions while its receiver is down, so every delivery is pending; the process is killed with
// SIGKILL; the receiver comes back and the node is started again: every pending delivery arrives, in
// order, none lost, and the registration survived.

// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../../src/modules/registry.js';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadKeyFile } from '../../src/crypto/keyfile.js';
import { nodeFiles } from '../../src/node/files.js';
import { initNodeDir } from '../../src/node/init.js';
import { ToranaClient } from '../../src/sdk/client.js';
import { freeBasePort } from '../helpers/network.js';
import { PeerProcess } from '../helpers/network-peer.js';
import { newAccount } from '../helpers/tx.js';
import { type Receiver, startReceiver } from '../helpers/webhook-receiver.js';

const owner = newAccount('wonderland', 51);
const COMMITTED_TXS = { and: [{ eq: ['kind', 'transaction'] }, { eq: ['tx_status', 'Committed'] }] };
const TXS = 6;

describe('webhooks across kill -9', () => {
  let dir = '';
  let peer: PeerProcess | undefined;
  let rx: Receiver | undefined;
  after(async () => {
    await peer?.stop();
    await rx?.close();
    if (dir !== '') await rm(dir, { recursive: true, force: true });
  });

  it('delivers every pending delivery after a restart, in order, none lost', async () => {
    dir = await mkdtemp(join(tmpdir(), 'torana-webhooks-crash-'));
    const port = await freeBasePort(1);
    const init = await initNodeDir({
      dir,
      overrides: {
        'gateway.port': port,
        'node.chain_id': 'torana-hooks',
        'storage.fsync': true,
        'log.level': 'warn',
        'webhooks.retry_base_ms': 50,
        'webhooks.retry_max_delay_ms': 200,
        'webhooks.attempts_max': 1000,
      },
    });
    const url = `http://127.0.0.1:${port}`;
    peer = new PeerProcess({ dir, url, label: 'hooks' });
    peer.start();
    await peer.waitReady();
    rx = await startReceiver();
    rx.mode = 'fail';
    const admin = new ToranaClient({
      url,
      account: init.adminAccount,
      signer: await loadKeyFile(nodeFiles(dir).adminKey),
    });
    // Webhook owners are registered accounts (signed app requests).
    await admin.submitAndWait(
      await admin.build([
        { kind: 'RegisterDomain', id: 'wonderland', metadata: new Map() },
        { kind: 'RegisterAccount', id: owner.id, metadata: new Map() },
      ]),
    );
    const hooks = new ToranaClient({ url, account: owner.id, signer: owner.key });
    const hook = await hooks.createWebhook({ url: rx.url, secret: 'crash', filter: COMMITTED_TXS });
    const hashes: string[] = [];
    for (let i = 0; i < TXS; i++) {
      const tx = await admin.build([{ kind: 'RegisterDomain', id: `crashland${i}`, metadata: new Map() }]);
      hashes.push((await admin.submitAndWait(tx)).hash);
    }
    const pending = await hooks.webhookDeliveries(hook.id);
    assert.equal(pending.items.filter((d) => d.state === 'pending').length, TXS);
    await rx.waitFor((r) => r.received.length >= 2, 10_000, 'failed attempts before the kill');
    await peer.kill9();
    assert.ok(rx.accepted().length === 0);

    rx.mode = 'ok';
    peer.start();
    await peer.waitReady();
    await rx.waitFor((r) => r.accepted().length >= TXS, 20_000, 'every delivery after the restart');
    const delivered = rx.accepted().map((r) => JSON.parse(r.body));
    assert.deepEqual(
      delivered.map((b) => b.event.hash),
      hashes,
    );
    const ids = delivered.map((b) => b.id as number);
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => a - b),
    );
    // The receiver answers before the node records the outcome: wait for the record, then check it.
    let after = await hooks.getWebhook(hook.id);
    for (const until = Date.now() + 20_000; after.pending > 0 && Date.now() < until; ) {
      await new Promise((r) => setTimeout(r, 100));
      after = await hooks.getWebhook(hook.id);
    }
    assert.deepEqual([after.pending, after.has_secret, after.last_delivered_event_id], [0, true, ids.at(-1)]);
  });
});
