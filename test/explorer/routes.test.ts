// The complete explorer: every explorer route against a chain built by
// real transactions (test/gateway/app-fixture.ts), through a real socket; pagination walked end to end.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeQR } from '@paulmillr/qr/decode.js';
import { decode } from '../../src/codec/frame.js';
import { InstructionCodec } from '../../src/model/instructions.js';
import { ToranaClient } from '../../src/sdk/client.js';
import { fromHex } from '../../src/util/hex.js';
import { type AppFixture, alice, bob, enc, type J, rose, startAppFixture } from '../gateway/app-fixture.js';
import { svgToImage } from './qr-image.js';

/** Every page of `path` with `per_page`: checks the envelope on each and returns all items. */
async function walk(f: AppFixture, path: string, perPage: number, key: (x: J) => string): Promise<J[]> {
  const sep = path.includes('?') ? '&' : '?';
  const first = await f.get(`${path}${sep}per_page=${perPage}`);
  assert.equal(first.status, 200, JSON.stringify(first.body));
  const { total_items: total, total_pages: pages } = first.body.pagination;
  assert.equal(pages, Math.ceil(total / perPage));
  const all: J[] = [];
  for (let page = 1; page <= pages + 1; page++) {
    const r = await f.get(`${path}${sep}per_page=${perPage}&page=${page}`);
    assert.deepEqual(r.body.pagination, { page, per_page: perPage, total_pages: pages, total_items: total });
    assert.equal(r.body.items.length, page <= pages ? Math.min(perPage, total - (page - 1) * perPage) : 0);
    all.push(...r.body.items);
  }
  assert.equal(all.length, total);
  assert.equal(new Set(all.map(key)).size, total, `${path}: duplicates across pages`);
  return all;
}

describe('explorer family (real socket)', () => {
  let f: AppFixture;
  before(async () => {
    f = await startAppFixture();
  });
  after(async () => {
    await f?.t.stopAll();
  });

  it('walks every list end to end: sums of pages are the totals, without duplicates', async () => {
    const tip = f.t.node.ledger.height();
    const blocks = await walk(f, '/v1/explorer/blocks', 2, (b) => b.hash);
    assert.deepEqual(
      blocks.map((b) => b.height),
      Array.from({ length: tip }, (_, i) => tip - i),
    );
    const txs = await walk(f, '/v1/explorer/transactions', 2, (t) => t.hash);
    assert.equal(txs.length, 5);
    const ins = await walk(f, '/v1/explorer/instructions', 4, (i) => `${i.transaction_hash}/${i.index}`);
    assert.equal(ins.filter((i) => i.transaction_hash === f.hashes.setup).length, 13);
    assert.deepEqual(
      ins.slice(0, 2).map((i) => i.kind),
      ['TransferNft', 'TransferAsset'],
    );
    await walk(f, '/v1/explorer/accounts', 4, (a) => a.id);
    await walk(f, '/v1/explorer/domains', 3, (d) => d.id);
    await walk(f, '/v1/explorer/asset-definitions', 2, (d) => d.id);
    const assets = await walk(f, '/v1/explorer/assets', 2, (a) => a.id);
    assert.ok(assets.some((a) => a.id === `${rose}#${bob.id}` && a.quantity === '25.25'));
    await walk(f, '/v1/explorer/nfts', 1, (n) => n.id);
    await f.refused('/v1/explorer/instructions?page=0', 400, 'invalid_pagination');
    await f.refused('/v1/explorer/assets?per_page=501', 400, 'invalid_pagination');
  });

  it('reads one block by height or by hash, and the tip from health', async () => {
    const newest = (await f.get('/v1/explorer/blocks?per_page=1')).body.items[0];
    const byHash = await f.get(`/v1/explorer/blocks/${newest.hash.toUpperCase()}`);
    assert.equal(byHash.status, 200);
    assert.equal(byHash.body.height, newest.height);
    assert.deepEqual(byHash.body, (await f.get(`/v1/explorer/blocks/${newest.height}`)).body);
    await f.refused(`/v1/explorer/blocks/${'ab'.repeat(32)}`, 404, 'not_found');
    const health = await f.get('/v1/explorer/health');
    assert.deepEqual(health.body, {
      height: newest.height,
      block_hash: newest.hash,
      creation_time_ms: newest.creation_time_ms,
    });
  });

  it('filters transactions by authority, status, block and asset, and shows the rejection reason', async () => {
    const hashes = async (q: string) =>
      (await f.get(`/v1/explorer/transactions?${q}`)).body.items.map((t: J) => t.hash);
    assert.deepEqual(await hashes(`authority=${enc(alice.id)}`), [f.hashes.rejected, f.hashes.transfer]);
    assert.deepEqual(await hashes('status=rejected'), [f.hashes.rejected]);
    assert.deepEqual(await hashes(`block=${f.heights.transfer}`), [f.hashes.transfer]);
    assert.deepEqual(await hashes(`asset_id=${enc(rose)}`), [
      f.hashes.rejected,
      f.hashes.transfer,
      f.hashes.setup,
    ]);
    assert.deepEqual(await hashes(`asset_id=${enc(`${rose}#${bob.id}`)}&status=Committed`), [
      f.hashes.transfer,
    ]);
    await f.refused('/v1/explorer/transactions?status=maybe', 400, 'bad_request');
    await f.refused('/v1/explorer/transactions?authority=nobody', 400, 'bad_request');
    const rejected = await f.get(`/v1/explorer/transactions/${f.hashes.rejected}`);
    assert.equal(rejected.body.status, 'Rejected');
    assert.equal(rejected.body.executable, 'Instructions');
    const reason = rejected.body.rejection_reason;
    assert.equal(reason.json.code, 'insufficient_funds');
    assert.equal(reason.message, reason.json.message);
    assert.match(reason.encoded, /^[0-9a-f]+$/);
    const ok = await f.get(`/v1/explorer/transactions/${f.hashes.transfer}`);
    assert.equal(ok.body.status, 'Committed');
    assert.equal(ok.body.rejection_reason, undefined);
  });

  it('serves the latest transactions and instructions with limit (default 10, at most 100)', async () => {
    const latest = await f.get('/v1/explorer/transactions/latest?limit=2');
    assert.deepEqual(
      latest.body.items.map((t: J) => t.hash),
      [f.hashes.nft, f.hashes.rejected],
    );
    assert.equal((await f.get('/v1/explorer/transactions/latest')).body.items.length, 5);
    const ins = await f.get('/v1/explorer/instructions/latest');
    assert.equal(ins.body.items.length, 10);
    assert.equal(ins.body.items[0].kind, 'TransferNft');
    await f.refused('/v1/explorer/instructions/latest?limit=0', 400, 'invalid_pagination');
    await f.refused('/v1/explorer/transactions/latest?limit=101', 400, 'invalid_pagination');
  });

  it('filters instructions and reads one with its codec bytes and JSON', async () => {
    const kinds = async (q: string) =>
      (await f.get(`/v1/explorer/instructions?per_page=100&${q}`)).body.items.map((i: J) => i.kind);
    assert.deepEqual(await kinds(`asset_id=${enc(rose)}&transaction_status=committed`), [
      'TransferAsset',
      'MintAsset',
      'RegisterAssetDefinition',
    ]);
    assert.deepEqual(await kinds(`account=${enc(bob.id)}`), [
      'TransferAsset',
      'TransferAsset',
      'MintAsset',
      'RegisterAccount',
    ]);
    assert.deepEqual(await kinds(`kind=MintAsset&authority=${enc(alice.id)}`), []);
    const setup = (await f.get(`/v1/explorer/instructions?per_page=100&transaction_hash=${f.hashes.setup}`))
      .body;
    assert.equal(setup.pagination.total_items, 13);
    assert.deepEqual(
      setup.items.map((i: J) => i.index),
      Array.from({ length: 13 }, (_, i) => 12 - i),
    );
    const one = await f.get(`/v1/explorer/instructions/${f.hashes.setup}/8`);
    assert.equal(one.status, 200);
    assert.equal(one.body.kind, 'MintAsset');
    assert.equal(one.body.block_height, f.heights.setup);
    const bytes = fromHex(one.body.box.encoded)!;
    const d = decode(InstructionCodec, bytes, { bytesMax: 1 << 20, itemsMax: 1000, depthMax: 64 });
    assert.ok(d.ok);
    assert.deepEqual(InstructionCodec.toJson(d.value), one.body.box.json);
    assert.equal(one.body.box.json.amount, '100.50');
    await f.refused(`/v1/explorer/instructions/${f.hashes.setup}/13`, 404, 'not_found');
    await f.refused(`/v1/explorer/instructions/${f.hashes.setup}/x`, 400, 'bad_request');
    await f.refused('/v1/explorer/instructions?kind=Teleport', 400, 'bad_request');
    await f.refused('/v1/explorer/instructions?transaction_hash=zz', 400, 'bad_request');
  });

  it('reads accounts, domains, definitions, balances and NFTs one by one', async () => {
    const a = await f.get(`/v1/explorer/accounts/${enc(alice.id)}`);
    assert.equal(a.status, 200);
    assert.deepEqual([a.body.owned_assets, a.body.owned_nfts, a.body.owned_domains], [1, 1, 0]);
    const admin = await f.get(`/v1/explorer/accounts/${enc(f.t.admin.id)}`);
    assert.ok(admin.body.owned_domains >= 2);
    const w = await f.get('/v1/explorer/domains/wonderland');
    assert.deepEqual([w.body.account_count, w.body.asset_definition_count, w.body.nft_count], [2, 2, 1]);
    const d = await f.get(`/v1/explorer/asset-definitions/${enc(rose)}`);
    assert.deepEqual(
      [d.body.total_quantity, d.body.holder_count, d.body.metadata.color],
      ['100.50', 2, 'red'],
    );
    const bal = await f.get(`/v1/explorer/assets/${enc(`${rose}#${alice.id}`)}`);
    assert.deepEqual(
      [bal.body.quantity, bal.body.account_id, bal.body.definition_id],
      ['75.25', alice.id, rose],
    );
    const owned = await f.get(`/v1/explorer/assets?owned_by=${enc(bob.id)}`);
    assert.deepEqual(
      owned.body.items.map((x: J) => x.definition_id),
      [rose, 'tulip#wonderland'],
    );
    const byDef = await f.get(`/v1/explorer/assets?definition=${enc(rose)}&owned_by=${enc(alice.id)}`);
    assert.equal(byDef.body.pagination.total_items, 1);
    const nft = await f.get('/v1/explorer/nfts/deed%24wonderland');
    assert.deepEqual([nft.body.owned_by, nft.body.content.acres], [alice.id, 3]);
    await f.refused('/v1/explorer/accounts/nobody', 400, 'bad_request');
    await f.refused('/v1/explorer/domains/atlantis', 404, 'not_found');
    await f.refused(`/v1/explorer/assets/${enc(`gem#looking_glass#${alice.id}`)}`, 404, 'not_found');
    await f.refused('/v1/explorer/assets?owned_by=nobody', 400, 'bad_request');
  });

  it('draws the account id as a QR code a decoder reads back', async () => {
    const r = await f.get(`/v1/explorer/accounts/${enc(alice.id)}/qr`);
    assert.equal(r.status, 200);
    assert.equal(r.body.literal, alice.id);
    assert.equal(r.body.error_correction, 'medium');
    const side = Number(/viewBox="0 0 (\d+)/.exec(r.body.svg)![1]);
    assert.equal(side, 17 + 4 * r.body.qr_version + 4); // two modules of quiet zone each side
    assert.equal(decodeQR(svgToImage(r.body.svg)), alice.id);
    await f.refused(
      `/v1/explorer/accounts/${enc(alice.id.replace('wonderland', 'atlantis'))}/qr`,
      404,
      'not_found',
    );
  });

  it('computes the holder snapshot of a definition exactly', async () => {
    const s = await f.get(`/v1/explorer/asset-definitions/${enc(rose)}/snapshot`);
    assert.equal(s.status, 200);
    assert.equal(s.body.holders, 2);
    assert.equal(s.body.total_quantity, '100.50');
    // Balances 25.25 and 75.25: Gini = (75.25 - 25.25) / (2 · 100.50).
    assert.equal(s.body.gini_ppm, 248756);
    assert.deepEqual(s.body.top_holders, [
      { account_id: alice.id, quantity: '75.25', share_ppm: 748756 },
      { account_id: bob.id, quantity: '25.25', share_ppm: 251243 },
    ]);
    assert.equal(s.body.lorenz.length, 11);
    assert.deepEqual(s.body.lorenz[5], { holders_ppm: 500000, quantity_ppm: 251243 });
    assert.deepEqual(s.body.lorenz[10], { holders_ppm: 1000000, quantity_ppm: 1000000 });
    await f.refused('/v1/explorer/asset-definitions/none%23wonderland/snapshot', 404, 'not_found');
  });

  it('computes issuance and transfer volume over a window of blocks', async () => {
    const path = `/v1/explorer/asset-definitions/${enc(rose)}/econometrics`;
    const all = await f.get(path);
    assert.equal(all.status, 200);
    assert.deepEqual(
      [all.body.minted, all.body.burned, all.body.transfer_volume, all.body.mints, all.body.transfers],
      ['100.50', '0.00', '25.25', 1, 1],
    );
    assert.equal(all.body.velocity_ppm, 251243); // 25.25 / 100.50; the rejected 1000 is not counted
    const perBlock = await f.get(
      `${path}?from_height=${f.heights.setup}&to_height=${f.heights.transfer}&buckets=100`,
    );
    assert.deepEqual(
      perBlock.body.buckets.map((b: J) => [b.from_height, b.minted, b.transfer_volume]),
      [
        [f.heights.setup, '100.50', '0.00'],
        [f.heights.transfer, '0.00', '25.25'],
      ],
    );
    const later = await f.get(`${path}?from_height=${f.heights.rejected}`);
    assert.deepEqual([later.body.mints, later.body.transfers], [0, 0]);
    await f.refused(`${path}?buckets=0`, 400, 'bad_request');
    await f.refused(`${path}?from_height=${f.heights.nft}&to_height=${f.heights.setup}`, 400, 'bad_request');
  });

  it('counts the network totals for the metrics (this node profile serves them)', async () => {
    assert.equal(f.t.node.config.telemetry.profile, 'full');
    const m = await f.get('/v1/explorer/metrics');
    assert.equal(m.status, 200);
    const tip = f.t.node.ledger.height();
    assert.equal(m.body.height, tip);
    assert.equal(m.body.totals_height, tip);
    assert.deepEqual([m.body.transactions_accepted, m.body.transactions_rejected], [4, 1]);
    assert.equal(m.body.peers, 1);
    assert.equal(m.body.accounts, 6);
    assert.equal(m.body.domains, f.t.node.ledger.state.domainCount());
    assert.ok(m.body.block_time_ms_avg >= 0 && m.body.commit_time_ms_avg >= 0);
  });

  it('is read through the SDK with the node view codecs', async () => {
    const x = new ToranaClient({ url: f.t.url }).explorer;
    const rejected = await x.transactions({ status: 'Rejected' });
    assert.deepEqual(
      rejected.items.map((t) => t.hash),
      [f.hashes.rejected],
    );
    const detail = await x.transaction(f.hashes.rejected!);
    assert.equal(detail.rejectionReason?.json.code, 'insufficient_funds');
    const mint = await x.instruction(f.hashes.setup!, 8);
    assert.equal(mint.box.json.kind, 'MintAsset');
    const ins = await x.instructions({ account: bob.id, perPage: 2, page: 2 });
    assert.equal(ins.pagination.totalItems, 4);
    assert.equal((await x.block(f.heights.transfer!)).transactions[0]?.hash, f.hashes.transfer);
    assert.equal((await x.accountQr(alice.id)).literal, alice.id);
    assert.equal((await x.snapshot(rose)).giniPpm, 248756);
    assert.equal((await x.econometrics(rose, { buckets: 1 })).buckets.length, 1);
    assert.equal((await x.assets({ ownedBy: bob.id })).items.length, 2);
    assert.equal((await x.metrics()).transactionsRejected, 1);
    assert.equal((await x.latestInstructions(3)).items.length, 3);
    assert.equal((await x.health()).height, f.t.node.ledger.height());
  });

  it('lists every explorer route in the OpenAPI document, and no contract-view route', async () => {
    const doc = (await f.get('/openapi.json')).body;
    const paths = Object.keys(doc.paths).filter((p) => p.startsWith('/v1/explorer/'));
    // 29 of §2 less contract-view; the two lot pages are the RWA lots module's (test/rwas/).
    assert.equal(paths.length, 28, paths.join('\n'));
    assert.ok(!paths.some((p) => p.includes('contract-view')));
    assert.deepEqual(
      paths.filter((p) => p.includes('rwas')),
      ['/v1/explorer/rwas', '/v1/explorer/rwas/{rwa_id}'],
    );
  });
});
