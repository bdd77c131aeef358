// The transaction history family (src/modules/history/) through a real socket, on a chain built in the test
// (test/gateway/app-fixture.ts): signed caller history and its visibility, the per-account and
// per-definition lists and their query twins, every filter, codec answers, and a cursor walk while new
// blocks commit.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { numeric } from '../../src/model/numeric.js';
import { HistoryPageView } from '../../src/modules/history/views.js';
import { ToranaClient } from '../../src/sdk/client.js';
import { isToranaApiError } from '../../src/sdk/errors.js';
import { signRequest } from '../../src/sdk/signed-request.js';
import {
  type AppFixture,
  alice,
  bob,
  carol,
  enc,
  type J,
  rose,
  startAppFixture,
} from '../gateway/app-fixture.js';
import { runCli as cli } from '../helpers/cli-in-process.js';
import { run } from '../helpers/node.js';
import type { TestAccount } from '../helpers/tx.js';

const hashes = (b: J) => b.items.map((x: J) => x.hash);

describe('transaction history', () => {
  let f: AppFixture;
  before(async () => {
    f = await startAppFixture();
  });
  after(async () => f?.t.stopAll());

  async function history(who: TestAccount, query = '', as = who.id) {
    const url = `/v1/transactions/history${query}`;
    const headers = signRequest({ method: 'GET', url, account: as, signer: who.key });
    const res = await fetch(f.t.url + url, { headers });
    return { status: res.status, body: (await res.json()) as J };
  }

  it('needs a signed request: 401 without one, 403 for a key that is not the account', async () => {
    await f.refused('/v1/transactions/history', 401, 'signature_missing');
    const forged = await history(bob, '', alice.id);
    assert.equal(forged.status, 403);
    assert.equal(forged.body.code, 'request_signature_invalid');
  });

  it('shows each caller the transactions it signed or is named in, newest first', async () => {
    const a = await history(alice);
    assert.equal(a.status, 200, JSON.stringify(a.body));
    assert.equal(a.body.total, 4);
    assert.deepEqual(hashes(a.body), [f.hashes.nft, f.hashes.rejected, f.hashes.transfer, f.hashes.setup]);
    const rejected = a.body.items[1];
    assert.equal(rejected.authority, alice.id);
    assert.equal(rejected.entrypoint_hash, f.hashes.rejected);
    assert.equal(rejected.result_ok, false);
    assert.equal(rejected.block_height, f.heights.rejected);
    assert.equal(typeof rejected.timestamp_ms, 'number');
    assert.equal(a.body.items[0].result_ok, true);
    // bob is named by the setup (registration, mint) and both transfers, never by the NFT transfer.
    const b = await history(bob);
    assert.deepEqual(hashes(b.body), [f.hashes.rejected, f.hashes.transfer, f.hashes.setup]);
    const c = await history(carol);
    assert.deepEqual(hashes(c.body), [f.hashes.setup]);
  });

  it('filters by status, kind and block time', async () => {
    const rejected = await history(alice, '?status=rejected');
    assert.deepEqual(hashes(rejected.body), [f.hashes.rejected]);
    assert.equal(rejected.body.total, 1);
    const ok = await history(alice, '?status=ok');
    assert.deepEqual(hashes(ok.body), [f.hashes.nft, f.hashes.transfer, f.hashes.setup]);
    const nft = await history(alice, '?kind=TransferNft');
    assert.deepEqual(hashes(nft.body), [f.hashes.nft]);
    const all = (await history(alice)).body.items as J[];
    const at = all.find((x) => x.hash === f.hashes.transfer).timestamp_ms;
    const window = await history(alice, `?from_ms=${at}&to_ms=${at}`);
    assert.ok(hashes(window.body).includes(f.hashes.transfer));
    assert.ok(window.body.items.every((x: J) => x.timestamp_ms === at));
    const later = await history(alice, `?from_ms=${at + 1}`);
    assert.ok(later.body.items.every((x: J) => x.timestamp_ms > at));
    assert.equal((await history(alice, '?status=maybe')).body.code, 'invalid_filter');
    assert.equal((await history(alice, '?kind=Teleport')).body.code, 'invalid_filter');
    assert.equal((await history(alice, '?from_ms=-1')).body.code, 'invalid_filter');
    assert.equal((await history(alice, '?cursor=nope')).body.code, 'invalid_pagination');
  });

  it('filters the caller history by asset, showing only what the caller may see', async () => {
    const bobsRose = enc(`${rose}#${bob.id}`);
    const a = await history(alice, `?asset_id=${bobsRose}`);
    assert.deepEqual(hashes(a.body), [f.hashes.rejected, f.hashes.transfer]);
    const own = await history(bob, `?asset_id=${bobsRose}`);
    assert.deepEqual(hashes(own.body), [f.hashes.rejected, f.hashes.transfer]);
    const stranger = await history(carol, `?asset_id=${bobsRose}`);
    assert.equal(stranger.body.total, 0);
    assert.equal((await history(alice, '?asset_id=rose')).body.code, 'invalid_filter');
  });

  it('lists one asset definition’s transactions, with filters and a JSON query twin', async () => {
    const path = `/v1/assets/definitions/${enc(rose)}/transactions`;
    const r = await f.get(path);
    assert.equal(r.status, 200);
    assert.deepEqual(hashes(r.body), [f.hashes.rejected, f.hashes.transfer, f.hashes.setup]);
    const ok = await f.get(`${path}?status=ok&limit=1`);
    assert.deepEqual(hashes(ok.body), [f.hashes.transfer]);
    assert.equal(ok.body.total, 2);
    const next = await f.get(`${path}?status=ok&limit=1&cursor=${ok.body.next_cursor}`);
    assert.deepEqual(hashes(next.body), [f.hashes.setup]);
    assert.equal(next.body.next_cursor, undefined);
    const q = await f.post(`${path}/query`, { status: 'rejected' });
    assert.deepEqual(hashes(q.body), [f.hashes.rejected]);
    const tulip = await f.get(`/v1/assets/definitions/${enc('tulip#wonderland')}/transactions`);
    assert.deepEqual(hashes(tulip.body), [f.hashes.setup]);
    await f.refused(`/v1/assets/definitions/${enc('nope#wonderland')}/transactions`, 404, 'not_found');
    // Neither an id nor an alias literal: 400; a well-formed alias bound to nothing: 404.
    await f.refused(`/v1/assets/definitions/${enc('no pe!')}/transactions`, 400, 'bad_request');
    await f.refused(`/v1/assets/definitions/${enc('nope')}/transactions`, 404, 'not_found');
  });

  it('extends the public account list with the same filters, cursor and codec answer', async () => {
    const path = `/v1/accounts/${enc(alice.id)}/transactions`;
    const kinds = await f.post(`${path}/query`, { kind: 'TransferAsset', limit: 5 });
    assert.deepEqual(hashes(kinds.body), [f.hashes.rejected, f.hashes.transfer]);
    const page = await f.codec(`${path}?limit=2`, HistoryPageView);
    assert.equal(page.total, 4);
    assert.deepEqual(
      page.items.map((x) => x.hash),
      [f.hashes.nft, f.hashes.rejected],
    );
    assert.equal(typeof page.nextCursor, 'string');
    const rest = await f.get(`${path}?limit=2&cursor=${page.nextCursor}`);
    assert.deepEqual(hashes(rest.body), [f.hashes.transfer, f.hashes.setup]);
  });

  it('walks a history by cursor while new blocks commit: no repeats, no gaps', async () => {
    const pay = () =>
      run(f.t, alice, [
        {
          kind: 'TransferAsset',
          source: `${rose}#${alice.id}`,
          destination: carol.id,
          amount: numeric('0.01'),
        },
      ]);
    const known = [f.hashes.setup];
    for (let i = 0; i < 8; i++) known.push((await pay()).hash);
    const walked: string[] = [];
    let cursor = '';
    for (let round = 0; round < 20; round++) {
      const r = await history(carol, `?limit=2${cursor === '' ? '' : `&cursor=${cursor}`}`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      walked.push(...hashes(r.body));
      await pay(); // a newer transaction for carol commits between every two pages
      if (r.body.next_cursor === undefined) break;
      cursor = r.body.next_cursor;
    }
    assert.deepEqual(walked, known.reverse());
    assert.ok((await history(carol)).body.total > walked.length);
  });

  it('is read by the SDK: signed caller history, filters, walks and the public lists', async () => {
    const client = new ToranaClient({ url: f.t.url, account: bob.id, signer: bob.key });
    const page = await client.transactionHistory({ status: 'rejected' });
    assert.deepEqual(
      page.items.map((x) => x.hash),
      [f.hashes.rejected],
    );
    assert.equal(page.items[0]!.resultOk, false);
    const walked: string[] = [];
    for await (const item of client.walkTransactionHistory({ limit: 1 })) walked.push(item.hash);
    assert.deepEqual(walked, [f.hashes.rejected, f.hashes.transfer, f.hashes.setup]);
    const defs = await client.assetDefinitionTransactions(rose, { kind: 'RegisterAssetDefinition' });
    assert.deepEqual(
      defs.items.map((x) => x.hash),
      [f.hashes.setup],
    );
    const own = await client.accountTransactions(alice.id, { kind: 'TransferNft' });
    assert.deepEqual(
      own.items.map((x) => x.hash),
      [f.hashes.nft],
    );
    const anonymous = new ToranaClient({ url: f.t.url });
    await assert.rejects(
      anonymous.accountTransactions(alice.id, { status: 'nope' as 'ok' }),
      (e) => isToranaApiError(e) && e.code === 'invalid_filter',
    );
  });

  it('is read by `torana tx history`, signed with the CLI key, and the public lists by --of / --definition', async () => {
    const common = ['--dir', f.t.dir, '--url', f.t.url, '--json'];
    const own = await cli(['tx', 'history', ...common]);
    assert.equal(own.code, 0, own.err);
    // The CLI signs as the node's admin (client.json): the NFT transfer, the setup, then genesis.
    const mine = JSON.parse(own.out);
    assert.deepEqual(hashes(mine).slice(0, 2), [f.hashes.nft, f.hashes.setup]);
    assert.equal(mine.items.at(-1).block_height, 1);
    const all = await cli(['tx', 'history', '--of', bob.id, '--limit', '1', '--all', ...common]);
    assert.equal(all.code, 0, all.err);
    assert.deepEqual(hashes(JSON.parse(all.out)), [f.hashes.rejected, f.hashes.transfer, f.hashes.setup]);
    const def = await cli(['tx', 'history', '--definition', rose, '--status', 'rejected', ...common]);
    assert.deepEqual(hashes(JSON.parse(def.out)), [f.hashes.rejected]);
  });
});
