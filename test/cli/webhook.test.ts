// `torana webhook add | ls | deliveries | rm` against a served node, signed as the account of the
// node directory's client.json, with a receiver on 127.0.0.1 (the dev configuration allows loopback).
// The CLI runs in this process (test/helpers/cli-in-process.ts; test/cli/cli.test.ts runs it as a child).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { verifyWebhookSignature } from '../../src/modules/webhooks/signature.js';
import { runCli as cli } from '../helpers/cli-in-process.js';
import { run } from '../helpers/node.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';
import { type Receiver, startReceiver } from '../helpers/webhook-receiver.js';

describe('torana webhook', () => {
  let t: ServedTestNode;
  let rx: Receiver;
  let common: string[];
  before(async () => {
    t = await startServedNode();
    rx = await startReceiver();
    common = ['--dir', t.dir, '--url', t.url, '--json'];
  });
  after(async () => {
    await rx.close();
    await t.stopAll();
  });

  it('adds a webhook, lists it, shows its deliveries and removes it', async () => {
    const filter = '{"eq":["kind","transaction"]}';
    const added = await cli(['webhook', 'add', rx.url, '--secret', 'cli', '--filter', filter, ...common]);
    assert.equal(added.code, 0, added.err);
    const hook = JSON.parse(added.out);
    assert.deepEqual([hook.url, hook.has_secret, hook.owner], [rx.url, true, t.admin.id]);
    await run(t, t.admin, [{ kind: 'RegisterDomain', id: 'clihooks', metadata: new Map() }]);
    await rx.waitFor((r) => r.accepted().length >= 1, 10_000, 'a delivery');

    const ls = await cli(['webhook', 'ls', ...common]);
    assert.equal(ls.code, 0, ls.err);
    assert.deepEqual(
      JSON.parse(ls.out).items.map((h: { id: string }) => h.id),
      [hook.id],
    );
    const deliveries = await cli(['webhook', 'deliveries', hook.id, ...common]);
    assert.equal(deliveries.code, 0, deliveries.err);
    const items = JSON.parse(deliveries.out).items as { state: string }[];
    assert.ok(items.length >= 1 && items.every((d) => d.state === 'delivered'));

    const rm = await cli(['webhook', 'rm', hook.id, ...common]);
    assert.equal(rm.code, 0, rm.err);
    const gone = await cli(['webhook', 'rm', hook.id, ...common]);
    assert.notEqual(gone.code, 0);
    assert.match(gone.err, /webhook_not_found/);
  });

  it('gets one webhook, sends a signed test delivery, and rotates its secret with an overlap', async () => {
    const added = await cli(['webhook', 'add', rx.url, '--secret', 'old', ...common]);
    assert.equal(added.code, 0, added.err);
    const id = JSON.parse(added.out).id as string;
    const got = await cli(['webhook', 'get', id, ...common]);
    assert.equal(got.code, 0, got.err);
    assert.deepEqual([JSON.parse(got.out).id, JSON.parse(got.out).has_secret], [id, true]);

    const signedWith = (i: number) => {
      const r = rx.received[i]!;
      const ts = Number(r.headers['x-ledger-webhook-timestamp']);
      const sig = String(r.headers['x-ledger-webhook-signature']);
      return ['old', 'new'].filter((s) => verifyWebhookSignature(s, ts, r.body, sig));
    };
    const before = rx.received.length;
    const test = await cli(['webhook', 'test', id, '--wait', ...common]);
    assert.equal(test.code, 0, test.err);
    assert.equal(JSON.parse(test.out).state, 'delivered');
    assert.equal(rx.received.length, before + 1);
    const body = JSON.parse(rx.received[before]!.body);
    assert.deepEqual([body.id, body.event.kind, body.event.webhook_id], [0, 'webhook.test', id]);
    assert.equal(rx.received[before]!.headers['x-ledger-event-id'], '0');
    assert.deepEqual(signedWith(before), ['old']);

    // Rotation with the default overlap: both secrets sign.
    const rotated = await cli(['webhook', 'rotate-secret', id, '--secret', 'new', ...common]);
    assert.equal(rotated.code, 0, rotated.err);
    const view = JSON.parse(rotated.out);
    assert.ok(view.previous_secret_until_ms > view.secret_rotated_ms, rotated.out);
    assert.equal(view.secret, undefined);
    assert.equal((await cli(['webhook', 'test', id, '--wait', ...common])).code, 0);
    assert.deepEqual(signedWith(before + 1), ['old', 'new']);
    assert.equal(String(rx.received[before + 1]!.headers['x-ledger-webhook-signature']).split(',').length, 2);

    // A short overlap: once it ends, the old secret is dropped.
    const short = await cli([
      'webhook',
      'rotate-secret',
      id,
      '--secret',
      'new',
      '--overlap-ms',
      '300',
      ...common,
    ]);
    assert.equal(short.code, 0, short.err);
    await new Promise((r) => setTimeout(r, 400));
    assert.equal((await cli(['webhook', 'test', id, '--wait', ...common])).code, 0);
    assert.deepEqual(signedWith(before + 2), ['new']);
    const after = JSON.parse((await cli(['webhook', 'get', id, ...common])).out);
    assert.equal(after.previous_secret_until_ms, undefined);

    // A secret the node makes is printed once.
    const made = await cli(['webhook', 'rotate-secret', id, ...common]);
    assert.match(JSON.parse(made.out).secret, /^[0-9a-f]{64}$/);
    const tooLong = await cli(['webhook', 'rotate-secret', id, '--overlap-ms', '999999999999', ...common]);
    assert.notEqual(tooLong.code, 0);
    assert.match(tooLong.err, /overlap_ms/);
    assert.equal((await cli(['webhook', 'rm', id, ...common])).code, 0);
  });

  it('lists the event types a webhook can filter on, without signing', async () => {
    const r = await cli(['webhook', 'event-types', '--url', t.url, '--kind', 'data', '--json']);
    assert.equal(r.code, 0, r.err);
    const cat = JSON.parse(r.out);
    const names = cat.items.map((x: { name: string }) => x.name);
    assert.ok(names.includes('AccountCreated') && names.includes('MultisigProposed'), names.join(' '));
    assert.ok(cat.items.every((x: { kind: string }) => x.kind === 'data'));
    assert.deepEqual(cat.items.find((x: { name: string }) => x.name === 'AccountCreated').filter, {
      eq: ['data_kind', 'AccountCreated'],
    });
    const table = await cli(['webhook', 'event-types', '--url', t.url, '--kind', 'block']);
    assert.equal(table.code, 0, table.err);
    assert.match(table.out, /block\s+Applied\s+\{"eq":\["block_status","Applied"\]\}/);
  });
});
