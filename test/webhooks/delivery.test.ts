// Webhooks through real sockets: a served node, receivers on 127.0.0.1, the SDK
// as the registering client. Delivery exactly once per delivery id, in order, with a valid HMAC; retries
// with backoff while the receiver is down; a receiver that never answers ends in the dead letters and a
// replay delivers; registration refuses private targets; owners see only their own webhooks.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ed25519KeyPair } from '../../src/crypto/signer.js';
import { compileEventFilter, projectEvent } from '../../src/gateway/event-filter.js';
import { signOperatorRequest } from '../../src/gateway/operator-message.js';
import { QUERY_LANGUAGE } from '../../src/node/query-language.js';
import { ToranaClient } from '../../src/sdk/client.js';
import { verifyWebhookSignature } from '../../src/sdk/index.js';
import { registerAccounts, run } from '../helpers/node.js';
import { operatorAudience, type ServedTestNode, startServedNode } from '../helpers/served.js';
import { newAccount } from '../helpers/tx.js';
import { type Receiver, startReceiver } from '../helpers/webhook-receiver.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked field by field.
type J = any;
const OPERATOR_SEED = new Uint8Array(32).fill(0x31);
const OPERATOR_KEY = Ed25519KeyPair.fromSeed(OPERATOR_SEED).publicKeyText();
const alice = newAccount('wonderland', 41);
const bob = newAccount('wonderland', 42);
const COMMITTED_TXS = { and: [{ eq: ['kind', 'transaction'] }, { eq: ['tx_status', 'Committed'] }] };

let t: ServedTestNode;
const receivers: Receiver[] = [];
let domains = 0;

const client = (who: typeof alice) => new ToranaClient({ url: t.url, account: who.id, signer: who.key });
const header = (r: { headers: Record<string, unknown> }, name: string) => String(r.headers[name]);

/** Commits one transaction registering a fresh domain (three matching kinds of event per block). */
async function commitOne(): Promise<void> {
  const r = await run(t, t.admin, [
    { kind: 'RegisterDomain', id: `hookland${domains++}`, metadata: new Map() },
  ]);
  assert.equal(r.status.kind, 'Committed');
}

/** Ids of the bus events after `fromId` that `filter` keeps, as the node matched them. */
function expectedIds(filter: unknown, fromId: number): number[] {
  const f = compileEventFilter(filter, 10, QUERY_LANGUAGE);
  assert.ok(f.ok);
  const got = t.node.pipeline.events.since(fromId);
  assert.ok(got !== 'gone');
  return got.filter((e) => f.match(projectEvent(e.event))).map((e) => e.id);
}

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}

async function operatorFetch(method: string, path: string): Promise<{ status: number; body: J }> {
  const headers = signOperatorRequest({
    ...operatorAudience(t.node),
    method,
    url: path,
    seed: OPERATOR_SEED,
  });
  const res = await fetch(`${t.url}${path}`, { method, headers });
  return { status: res.status, body: res.status === 204 ? undefined : await res.json() };
}

describe('webhooks through real sockets', () => {
  before(async () => {
    t = await startServedNode({
      'operator.public_keys': [OPERATOR_KEY],
      'webhooks.retry_base_ms': 40,
      'webhooks.retry_max_delay_ms': 160,
      'webhooks.attempts_max': 4,
      'webhooks.timeout_ms': 250,
    });
    await registerAccounts(t, [alice, bob]);
  });
  after(async () => {
    for (const r of receivers) await r.close();
    await t.stopAll();
  });

  it('delivers every matching event once, in order, with a valid HMAC over timestamp and body', async () => {
    const rx = await receiver();
    const filter = { eq: ['kind', 'data'] };
    const hook = await client(alice).createWebhook({ url: rx.url, secret: 's3cret', filter });
    assert.deepEqual(
      [hook.url, hook.active, hook.has_secret, hook.owner, hook.filter],
      [rx.url, true, true, alice.id, filter],
    );
    assert.ok(!('secret' in hook));
    const from = hook.last_delivered_event_id;
    for (let i = 0; i < 3; i++) await commitOne();
    const want = expectedIds(filter, from);
    assert.ok(want.length >= 3);
    await rx.waitFor((r) => r.accepted().length >= want.length, 10_000, 'all deliveries');
    await new Promise((r) => setTimeout(r, 100)); // nothing more arrives
    const got = rx.received;
    assert.deepEqual(
      got.map((r) => JSON.parse(r.body).id),
      want,
    );
    assert.equal(new Set(got.map((r) => header(r, 'x-ledger-delivery-id'))).size, got.length);
    for (const r of got) {
      const body = JSON.parse(r.body);
      assert.equal(header(r, 'x-ledger-webhook-id'), hook.id);
      assert.equal(header(r, 'x-ledger-event-id'), String(body.id));
      assert.equal(header(r, 'x-ledger-delivery-attempt'), '1');
      assert.equal(body.event.kind, 'Data');
      const ts = header(r, 'x-ledger-webhook-timestamp');
      assert.ok(verifyWebhookSignature('s3cret', ts, r.body, header(r, 'x-ledger-webhook-signature')));
      assert.ok(!verifyWebhookSignature('other', ts, r.body, header(r, 'x-ledger-webhook-signature')));
    }
    const deliveries = await client(alice).webhookDeliveries(hook.id);
    assert.equal(deliveries.total, want.length);
    assert.ok(deliveries.items.every((d) => d.state === 'delivered' && d.attempts === 1));
    const again = await client(alice).getWebhook(hook.id);
    assert.equal(again.last_delivered_event_id, want.at(-1));
    const metrics = await (await fetch(`${t.url}/metrics`)).text();
    assert.match(metrics, /webhook_deliveries_total\{outcome="delivered"\} [1-9]/);
    assert.match(metrics, /webhook_queue_depth \d/);
  });

  it('retries with growing backoff while the receiver is down; then everything arrives, in order', async () => {
    const rx = await receiver();
    rx.mode = 'fail';
    const hook = await client(alice).createWebhook({ url: rx.url, filter: COMMITTED_TXS });
    await commitOne();
    await commitOne();
    await rx.waitFor((r) => r.received.length >= 3, 10_000, 'three failed attempts');
    rx.mode = 'ok';
    const want = expectedIds(COMMITTED_TXS, hook.last_delivered_event_id);
    assert.equal(want.length, 2);
    await rx.waitFor((r) => r.accepted().length === 2, 10_000, 'both delivered');
    const first = rx.received.filter((r) => JSON.parse(r.body).id === want[0]);
    // The same delivery id on every attempt, the attempt counted up, the waits growing (equal jitter:
    // the n-th wait is at least half of base × 2^(n−1)).
    assert.equal(new Set(first.map((r) => header(r, 'x-ledger-delivery-id'))).size, 1);
    assert.deepEqual(
      first.map((r) => header(r, 'x-ledger-delivery-attempt')),
      first.map((_, i) => String(i + 1)),
    );
    const gaps = first.slice(1).map((r, i) => r.atMs - first[i]!.atMs);
    assert.ok(gaps[0]! >= 18 && gaps[1]! >= 38, `backoff gaps ${gaps}`);
    // In order: the second event is never tried before the first is delivered.
    const firstOk = rx.received.findIndex((r) => r.answered === 'ok');
    assert.equal(JSON.parse(rx.received[firstOk]!.body).id, want[0]);
    assert.ok(rx.received.slice(0, firstOk).every((r) => JSON.parse(r.body).id === want[0]));
    assert.deepEqual(
      rx.accepted().map((r) => JSON.parse(r.body).id),
      want,
    );
  });

  it('a receiver that never answers ends in the dead letters; a replay delivers it', async () => {
    const rx = await receiver();
    rx.mode = 'hang';
    const c = client(alice);
    const hook = await c.createWebhook({ url: rx.url, secret: 'k', filter: COMMITTED_TXS });
    await commitOne();
    const until = Date.now() + 10_000;
    let dead = await c.webhookDeadLetters(hook.id);
    while (dead.total === 0 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 50));
      dead = await c.webhookDeadLetters(hook.id);
    }
    assert.equal(dead.total, 1);
    const letter = dead.items[0]!;
    assert.deepEqual([letter.state, letter.attempts, letter.last_error], ['dead', 4, 'timeout']);
    assert.equal(rx.received.length, 4);
    assert.equal((await c.getWebhook(hook.id)).active, true);
    rx.mode = 'ok';
    const replayed = await c.replayWebhookDeadLetter(hook.id, letter.delivery_id);
    assert.deepEqual([replayed.state, replayed.attempts], ['pending', 0]);
    await rx.waitFor((r) => r.accepted().length === 1, 5000, 'the replayed delivery');
    const ok = rx.accepted()[0]!;
    assert.equal(header(ok, 'x-ledger-delivery-id'), letter.delivery_id);
    assert.equal(header(ok, 'x-ledger-event-id'), String(letter.event_id));
    assert.equal((await c.webhookDeadLetters(hook.id)).total, 0);
    const missing = await c.replayWebhookDeadLetter(hook.id, letter.delivery_id).then(
      () => undefined,
      (e: J) => e.code,
    );
    assert.equal(missing, 'webhook_delivery_not_found');
  });

  it('refuses private targets at registration, and keeps each owner to its own webhooks', async () => {
    const a = client(alice);
    const refused = async (url: string) =>
      a.createWebhook({ url }).then(
        () => undefined,
        (e: J) => [e.status, e.code],
      );
    assert.deepEqual(await refused('http://10.0.0.1/hook'), [422, 'webhook_target_refused']);
    assert.deepEqual(await refused('http://169.254.169.254/latest'), [422, 'webhook_target_refused']);
    assert.deepEqual(await refused('ftp://127.0.0.1/hook'), [400, 'webhook_url_invalid']);
    const badFilter = await a
      .createWebhook({ url: 'http://127.0.0.1:9/h', filter: { eq: ['nope', 1] } })
      .then(
        () => undefined,
        (e: J) => e.code,
      );
    assert.equal(badFilter, 'invalid_filter');
    const unsigned = await fetch(`${t.url}/v1/webhooks`);
    assert.deepEqual([unsigned.status, ((await unsigned.json()) as J).code], [401, 'signature_missing']);

    const mine = await a.createWebhook({ url: 'http://127.0.0.1:9/h', active: false });
    const b = client(bob);
    assert.ok((await b.listWebhooks()).items.every((h) => h.owner === bob.id));
    const notFound = (p: Promise<unknown>) =>
      p.then(
        () => undefined,
        (e: J) => [e.status, e.code],
      );
    assert.deepEqual(await notFound(b.getWebhook(mine.id)), [404, 'webhook_not_found']);
    assert.deepEqual(await notFound(b.webhookDeliveries(mine.id)), [404, 'webhook_not_found']);
    const all = await operatorFetch('GET', '/v1/webhooks?limit=500');
    assert.equal(all.status, 200);
    assert.ok(all.body.items.some((h: J) => h.id === mine.id));
    const listed = await a.listWebhooks();
    assert.equal(listed.total, listed.items.length);
    assert.ok(listed.items.every((h) => h.owner === alice.id && !('secret' in h)));

    const del = await fetch(`${t.url}/v1/webhooks/${mine.id}`, { method: 'DELETE' });
    assert.equal(del.status, 401);
    await a.deleteWebhook(mine.id);
    assert.deepEqual(await notFound(a.getWebhook(mine.id)), [404, 'webhook_not_found']);
    assert.deepEqual(await notFound(a.deleteWebhook(mine.id)), [404, 'webhook_not_found']);
    const byOperator = await operatorFetch('POST', '/v1/webhooks');
    assert.equal(byOperator.status, 400); // no body: the operator is authenticated, the body is not valid
  });

  it('documents every webhook route as node-local', async () => {
    const doc = (await (await fetch(`${t.url}/openapi.json`)).json()) as J;
    const ops = Object.entries(doc.paths as Record<string, J>)
      // The event-type catalogue is the same on every node (read from the event codecs): not node-local.
      .filter(([p]) => p.startsWith('/v1/webhooks') && p !== '/v1/webhooks/event-types')
      .flatMap(([, item]) => Object.values(item as Record<string, J>));
    assert.equal(ops.length, 9);
    for (const op of ops) {
      assert.equal(op['x-ledger-node-local'], true);
      assert.match(op.description, /^Node-local:.*three nodes receives every event three times/);
    }
  });
});
