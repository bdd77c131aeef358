// `torana webhook add | ls | deliveries | rm` against a served node, signed as the account of the
// node directory's client.json, with a receiver on 127.0.0.1 (the dev configuration allows loopback).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { run } from '../helpers/node.js';
import { cli } from '../helpers/run-cli.js';
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
});
