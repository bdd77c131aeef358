// Aliases in event filters (docs/app-api.md "Names in place of ids"):
// an event filter comparing `account`, `definition` or `asset` with an alias follows what the alias
// names at the committed height, taken when an SSE or WebSocket stream opens and when a webhook is
// registered (the webhook stores the id). Real sockets: a served node, SSE over fetch, a WebSocket, a
// webhook receiver on 127.0.0.1.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Instruction } from '../../src/model/instructions.js';
import { numeric } from '../../src/model/numeric.js';
import { ToranaClient } from '../../src/sdk/client.js';
import { openRaw } from '../explorer/sse-reader.js';
import { type AppFixture, alice, bob, enc, type J, rose, startAppFixture } from '../gateway/app-fixture.js';
import { openWs } from '../gateway/stream-clients.js';
import { run } from '../helpers/node.js';
import { type Receiver, startReceiver } from '../helpers/webhook-receiver.js';

const ALICE_DATA = { and: [{ eq: ['kind', 'data'] }, { eq: ['account', 'alice@wonderland'] }] };

describe('aliases in event filters (served node)', () => {
  let f: AppFixture;
  let rx: Receiver;
  const sse = (filter: unknown) => openRaw(`${f.t.url}/v1/events/sse?filter=${enc(JSON.stringify(filter))}`);
  /** Mints one rose to bob, then one to alice: two transactions, each with its balance change. */
  async function mintBoth(): Promise<{ bob: string; alice: string }> {
    const mint = async (who: { id: string }) => {
      const r = await run(f.t, f.t.admin, [
        { kind: 'MintAsset', asset: `${rose}#${who.id}`, amount: numeric('1') },
      ]);
      assert.equal(r.status.kind, 'Committed', JSON.stringify(r.status));
      return r.hash;
    };
    return { bob: await mint(bob), alice: await mint(alice) };
  }

  before(async () => {
    f = await startAppFixture();
    rx = await startReceiver();
    const bound = await run(f.t, f.t.admin, [
      { kind: 'RegisterAccountAlias', alias: 'alice@wonderland', account: alice.id },
      { kind: 'RegisterAccountAlias', alias: 'bob@wonderland', account: bob.id },
      { kind: 'SetAssetAlias', alias: 'rose', definition: rose },
    ] satisfies Instruction[]);
    assert.equal(bound.status.kind, 'Committed', JSON.stringify(bound.status));
  });
  after(async () => {
    await rx?.close();
    await f?.t.stopAll();
  });

  it('an SSE stream filtered by an account alias delivers that account’s transaction, not another’s', async () => {
    const byAlias = await sse(ALICE_DATA);
    const byAsset = await sse({ eq: ['asset', 'rose#bob@wonderland'] });
    try {
      assert.equal(byAlias.status, 200, JSON.stringify(byAlias.error));
      assert.equal(byAsset.status, 200, JSON.stringify(byAsset.error));
      const hashes = await mintBoth();
      const [m] = await byAlias.until(1);
      const [b] = await byAsset.until(1);
      await sleep(100); // nothing else arrives
      assert.deepEqual(
        byAlias.messages.map((x) => [x.event, x.data.transaction_hash, x.data.data.kind, x.data.data.id]),
        [['data', hashes.alice, 'AssetAdded', `${rose}#${alice.id}`]],
        JSON.stringify(m?.data),
      );
      assert.deepEqual(
        byAsset.messages.map((x) => [x.data.transaction_hash, x.data.data.id]),
        [[hashes.bob, `${rose}#${bob.id}`]],
        JSON.stringify(b),
      );
    } finally {
      byAlias.close();
      byAsset.close();
    }
  });

  it('a WebSocket subscription resolves its aliases too', async () => {
    const ws = await openWs(f.t.url, '/events', JSON.stringify({ filter: ALICE_DATA }));
    try {
      await sleep(100); // the subscription is taken once its aliases are resolved
      const hashes = await mintBoth();
      const until = Date.now() + 10_000;
      while (ws.text.length < 1 && Date.now() < until) await sleep(10);
      await sleep(100);
      const got = ws.text.map((t) => JSON.parse(t).event);
      assert.deepEqual(
        got.map((e: J) => [e.transaction_hash, e.data.id]),
        [[hashes.alice, `${rose}#${alice.id}`]],
      );
    } finally {
      ws.ws.close();
    }
    const unbound = await openWs(
      f.t.url,
      '/events',
      JSON.stringify({ filter: { eq: ['account', 'nobody@wonderland'] } }),
    );
    const closed = await unbound.closed;
    assert.equal(closed.code, 1008);
    assert.match(closed.reason, /^not_found: .*nobody@wonderland/);
  });

  it('a webhook registered with an alias filter stores the id, delivers the match, stays put when the alias moves', async () => {
    const a = new ToranaClient({ url: f.t.url, account: alice.id, signer: alice.key });
    const added = { eq: ['data_kind', 'AssetAdded'] };
    const hook = await a.createWebhook({
      url: rx.url,
      filter: { and: [added, { eq: ['account', 'bob@wonderland'] }] },
    });
    assert.deepEqual(hook.filter, { and: [added, { eq: ['account', bob.id] }] });
    const first = await mintBoth();
    await rx.waitFor((r) => r.accepted().length >= 1, 10_000, 'the delivery');
    const moved = await run(f.t, f.t.admin, [
      { kind: 'TransferAccountAlias', alias: 'bob@wonderland', destination: alice.id },
    ]);
    assert.equal(moved.status.kind, 'Committed', JSON.stringify(moved.status));
    assert.equal((await f.get(`/v1/accounts/${enc('bob@wonderland')}`)).body.id, alice.id); // it moved
    const second = await mintBoth();
    await rx.waitFor((r) => r.accepted().length >= 2, 10_000, 'the second delivery');
    await sleep(100);
    const events = rx.received.map((r) => JSON.parse(r.body).event);
    assert.deepEqual(
      events.map((e: J) => [e.transaction_hash, e.data.kind, e.data.id]),
      [
        [first.bob, 'AssetAdded', `${rose}#${bob.id}`],
        [second.bob, 'AssetAdded', `${rose}#${bob.id}`],
      ],
    );
    assert.deepEqual((await a.getWebhook(hook.id)).filter, hook.filter);
    await a.deleteWebhook(hook.id);
  });

  it('an unbound alias is 404 not_found; a malformed filter stays 400', async () => {
    for (const filter of [
      { eq: ['account', 'nobody@wonderland'] },
      { in: ['definition', ['no.such.asset']] },
      { eq: ['asset', 'rose#nobody@wonderland'] },
    ]) {
      const s = await sse(filter);
      s.close();
      assert.deepEqual([s.status, s.error?.code], [404, 'not_found'], JSON.stringify(filter));
    }
    const bad = await sse({ eq: ['acount', 'alice@wonderland'] });
    bad.close();
    assert.deepEqual([bad.status, bad.error?.code], [400, 'invalid_filter']);
    const a = new ToranaClient({ url: f.t.url, account: alice.id, signer: alice.key });
    const refused = (filter: unknown) =>
      a.createWebhook({ url: rx.url, filter }).then(
        () => undefined,
        (e: J) => [e.status, e.code],
      );
    assert.deepEqual(await refused({ eq: ['account', 'nobody@wonderland'] }), [404, 'not_found']);
    assert.deepEqual(await refused({ eq: ['acount', 'bob@wonderland'] }), [400, 'invalid_filter']);
  });
});
