// Explorer: blocks, block detail, recent transactions, transaction by hash
// and the state tables, with `{pagination, items}` paging, through a real socket.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ExplorerBlockDetailView } from '../../src/modules/explorer/views.js';
import { type AppFixture, alice, bob, ids, type J, rose, startAppFixture } from './app-fixture.js';

describe('explorer routes (real socket)', () => {
  let f: AppFixture;
  before(async () => {
    f = await startAppFixture();
  });
  after(async () => {
    await f?.t.stopAll();
  });
  const get = (path: string) => f.get(path);
  const refused = (path: string, status: number, code: string, body?: unknown) =>
    f.refused(path, status, code, body);

  describe('explorer', () => {
    it('pages blocks newest first with page / per_page arithmetic', async () => {
      const tip = f.t.node.ledger.height();
      const r = await get('/v1/explorer/blocks?per_page=2');
      assert.equal(r.status, 200);
      assert.deepEqual(r.body.pagination, {
        page: 1,
        per_page: 2,
        total_pages: Math.ceil(tip / 2),
        total_items: tip,
      });
      assert.deepEqual(
        r.body.items.map((b: J) => b.height),
        [tip, tip - 1],
      );
      const first = r.body.items[0];
      assert.equal(first.prev_hash, r.body.items[1].hash);
      assert.match(first.hash, /^[0-9a-f]{64}$/);
      const last = await get(`/v1/explorer/blocks?per_page=2&page=${Math.ceil(tip / 2)}`);
      assert.equal(last.body.items.at(-1).height, 1);
      const beyond = await get(`/v1/explorer/blocks?per_page=2&page=${Math.ceil(tip / 2) + 1}`);
      assert.deepEqual(beyond.body.items, []);
      assert.equal((await get('/v1/explorer/blocks')).body.pagination.per_page, 20);
      await refused('/v1/explorer/blocks?page=0', 400, 'invalid_pagination');
      await refused('/v1/explorer/blocks?per_page=501', 400, 'invalid_pagination');
    });

    it('shows one block with its transactions, rejected count and certificate', async () => {
      const r = await get(`/v1/explorer/blocks/${f.heights.rejected}`);
      assert.equal(r.status, 200);
      assert.equal(r.body.height, f.heights.rejected);
      assert.equal(r.body.rejected_count, 1);
      assert.equal(r.body.transactions[0].hash, f.hashes.rejected);
      assert.equal(r.body.transactions[0].result.reason.code, 'insufficient_funds');
      assert.equal(r.body.certificate.block_hash, r.body.hash);
      assert.equal(r.body.certificate.signer_count, 1);
      const viaCodec = await f.codec(`/v1/explorer/blocks/${f.heights.rejected}`, ExplorerBlockDetailView);
      assert.deepEqual(ExplorerBlockDetailView.toJson(viaCodec), r.body);
      await refused('/v1/explorer/blocks/0', 400, 'bad_request');
      await refused('/v1/explorer/blocks/abc', 400, 'bad_request');
      await refused('/v1/explorer/blocks/99999', 404, 'not_found');
    });

    it('lists recent transactions newest first and reads one by hash', async () => {
      const list = await get('/v1/explorer/transactions?per_page=3');
      assert.equal(list.status, 200);
      assert.equal(list.body.pagination.total_items, 5); // genesis + the four above
      assert.equal(list.body.pagination.total_pages, 2);
      assert.deepEqual(
        list.body.items.map((x: J) => x.hash),
        [f.hashes.nft, f.hashes.rejected, f.hashes.transfer],
      );
      const page2 = await get('/v1/explorer/transactions?per_page=3&page=2');
      assert.deepEqual(page2.body.items[0].hash, f.hashes.setup);
      assert.equal(page2.body.items[1].block_height, 1);
      const one = await get(`/v1/explorer/transactions/${f.hashes.transfer}`);
      assert.equal(one.status, 200);
      assert.equal(one.body.block_height, f.heights.transfer);
      assert.equal(one.body.index, 0);
      assert.equal(one.body.authority, alice.id);
      assert.equal(one.body.result.kind, 'Committed');
      assert.equal(one.body.instructions[0].amount, '25.25');
      await refused(`/v1/explorer/transactions/${'0'.repeat(64)}`, 404, 'not_found');
      await refused('/v1/explorer/transactions/xyz', 400, 'bad_request');
    });

    it('pages accounts, domains and asset definitions with counts', async () => {
      const accounts = await get('/v1/explorer/accounts?per_page=3');
      // The genesis admin, bridge and shielded pool accounts are among them.
      assert.deepEqual(accounts.body.pagination, { page: 1, per_page: 3, total_pages: 2, total_items: 6 });
      const bobRow = (await get('/v1/explorer/accounts?per_page=10')).body.items.find(
        (a: J) => a.id === bob.id,
      );
      assert.equal(bobRow.asset_count, 2);
      const domains = await get('/v1/explorer/domains');
      const w = domains.body.items.find((x: J) => x.id === 'wonderland');
      assert.deepEqual([w.account_count, w.asset_definition_count, w.nft_count], [2, 2, 1]);
      // The dev genesis defines the native asset gas#system (docs/conference.md §Billing).
      const defs = await get('/v1/explorer/asset-definitions?page=1&per_page=3');
      assert.deepEqual(ids(defs.body.items), ['gas#system', 'gem#looking_glass', rose]);
      assert.equal(defs.body.items[2].holder_count, 2);
      assert.equal(defs.body.pagination.total_pages, 2);
    });
  });
});
