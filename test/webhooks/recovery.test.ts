// The intake's gap recovery (modules/webhooks/intake.ts `catchUp`, node/replay-events.ts): blocks committed
// while the webhook intake did not see them (here: the gateway closed while the node kept committing,
// the state a crash between a block's fsync and the webhook store's leaves behind) are read back from
// the chain at the next start, and their matching events delivered, in order, without repeating any.

import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { type ServedNode, serveNode } from '../../src/node/serve.js';
import { ToranaClient } from '../../src/sdk/client.js';
import { registerAccounts, run, startTestNode, type TestNode } from '../helpers/node.js';
import { newAccount } from '../helpers/tx.js';
import { type Receiver, startReceiver } from '../helpers/webhook-receiver.js';

const owner = newAccount('wonderland', 61);
const COMMITTED_TXS = { and: [{ eq: ['kind', 'transaction'] }, { eq: ['tx_status', 'Committed'] }] };

describe('webhook intake gap', () => {
  let t: TestNode | undefined;
  let served: ServedNode | undefined;
  let rx: Receiver | undefined;
  const cleanup = async () => {
    await served?.close();
    await rx?.close();
    await t?.cleanup();
    served = undefined;
    rx = undefined;
    t = undefined;
  };
  afterEach(cleanup);

  /** Two commits delivered, the gateway closed, two commits in the gap, a restart: the received bodies. */
  async function gap(config: Record<string, unknown>) {
    t = await startTestNode({ 'log.level': 'silent', ...config });
    const node = t;
    served = await serveNode(node.node, { dir: node.dir });
    await registerAccounts(node, [owner]);
    const receiver = await startReceiver();
    rx = receiver;
    const client = new ToranaClient({ url: served.url, account: owner.id, signer: owner.key });
    const hook = await client.createWebhook({ url: receiver.url, filter: COMMITTED_TXS });
    const hashes: string[] = [];
    const commit = async (i: number) => {
      const r = await run(node, node.admin, [{ kind: 'RegisterDomain', id: `gap${i}`, metadata: new Map() }]);
      assert.equal(r.status.kind, 'Committed');
      hashes.push(r.hash);
    };
    await commit(0);
    await commit(1);
    await receiver.waitFor((r) => r.accepted().length === 2, 10_000, 'the first two');
    await served.close();
    served = undefined;
    await commit(2);
    await commit(3);
    await node.restart();
    served = await serveNode(node.node, { dir: node.dir });
    const again = new ToranaClient({ url: served.url, account: owner.id, signer: owner.key });
    return { hook, hashes, commit, receiver, client: again };
  }

  it('delivers the events of blocks the intake missed, read back from the chain', async () => {
    const { hashes, commit, receiver } = await gap({});
    await receiver.waitFor((r) => r.accepted().length >= 4, 15_000, 'the two committed in the gap');
    await new Promise((r) => setTimeout(r, 200));
    const got = receiver.accepted().map((r) => JSON.parse(r.body));
    assert.deepEqual(
      got.map((b) => b.event.hash),
      hashes,
    );
    await commit(4);
    await receiver.waitFor((r) => r.accepted().length === 5, 10_000, 'a live one after the recovery');
  });

  it('does not re-execute a chain longer than webhooks.recovery_blocks_max: the gap is in last_error', async () => {
    const { hook, hashes, commit, receiver, client } = await gap({ 'webhooks.recovery_blocks_max': 1 });
    await commit(4);
    await receiver.waitFor((r) => r.accepted().length === 3, 10_000, 'a live one after the gap');
    const got = receiver.accepted().map((r) => JSON.parse(r.body).event.hash);
    assert.deepEqual(got, [hashes[0], hashes[1], hashes[4]]);
    const state = await client.getWebhook(hook.id);
    assert.match(
      state.last_error ?? '',
      /not read back after a restart: reading back \d+ blocks exceeds webhooks\.recovery_blocks_max/,
    );
  });
});
