// Delivery under concurrency through real sockets (the delivery thread, webhooks/lanes.ts): several
// webhooks delivering at once with `webhooks.in_flight_max` below their number and a small
// `webhooks.delivery_window`, one receiver failing now and then: every receiver gets each of its events,
// in order, no later event before an earlier one is accepted, each delivery id accepted once.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ToranaClient } from '../../src/sdk/client.js';
import { registerAccounts, run } from '../helpers/node.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';
import { newAccount } from '../helpers/tx.js';
import { type Receiver, startReceiver } from '../helpers/webhook-receiver.js';

const owner = newAccount('wonderland', 71);
const COMMITTED_TXS = { and: [{ eq: ['kind', 'transaction'] }, { eq: ['tx_status', 'Committed'] }] };
const HOOKS = 4;
const TXS = 12;

describe('webhooks delivering concurrently', () => {
  let t: ServedTestNode;
  const receivers: Receiver[] = [];
  before(async () => {
    t = await startServedNode({
      'webhooks.in_flight_max': 2,
      'webhooks.delivery_window': 3,
      'webhooks.retry_base_ms': 20,
      'webhooks.retry_max_delay_ms': 40,
      // The flaky receiver refuses for as long as the test takes to commit its transactions (seconds on a
      // loaded machine): with retries 20–40 ms apart, the default 12 attempts would dead-letter its head.
      'webhooks.attempts_max': 1000,
    });
    await registerAccounts(t, [owner]);
  });
  after(async () => {
    for (const r of receivers) await r.close();
    await t.stopAll();
  });

  it('delivers every webhook its events in order, each delivery accepted once, with in_flight_max below their number', async () => {
    const client = new ToranaClient({ url: t.url, account: owner.id, signer: owner.key });
    for (let i = 0; i < HOOKS; i++) {
      const rx = await startReceiver();
      receivers.push(rx);
      await client.createWebhook({ url: rx.url, filter: COMMITTED_TXS });
    }
    const flaky = receivers[0]!;
    const hashes: string[] = [];
    for (let i = 0; i < TXS; i++) {
      // The first receiver refuses a while in the middle: its later events must wait for the retries.
      if (i === 4) flaky.mode = 'fail';
      const r = await run(t, t.admin, [{ kind: 'RegisterDomain', id: `busy${i}`, metadata: new Map() }]);
      assert.equal(r.status.kind, 'Committed');
      hashes.push(r.hash);
    }
    await flaky.waitFor((r) => r.received.some((x) => x.answered === 'fail'), 10_000, 'a refusal');
    flaky.mode = 'ok';
    for (const rx of receivers) await rx.waitFor((r) => r.accepted().length >= TXS, 20_000, 'every event');
    for (const hook of (await client.listWebhooks()).items)
      assert.equal((await client.webhookDeadLetters(hook.id)).total, 0, 'nothing dead-lettered');
    await new Promise((r) => setTimeout(r, 200));
    assert.ok(
      flaky.received.some((r) => r.answered === 'fail'),
      'the flaky receiver refused some',
    );
    for (const rx of receivers) {
      const accepted = rx.accepted().map((r) => JSON.parse(r.body).event.hash as string);
      assert.deepEqual(accepted, hashes);
      const ids = rx.accepted().map((r) => String(r.headers['x-ledger-delivery-id']));
      assert.equal(new Set(ids).size, ids.length);
      // Every request (refused ones too) in event order: a later event never overtakes a retried one.
      const eventIds = rx.received.map((r) => Number(r.headers['x-ledger-event-id']));
      assert.deepEqual(
        eventIds,
        [...eventIds].sort((a, b) => a - b),
      );
    }
  });
});
