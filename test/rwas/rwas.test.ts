// Real-world-asset lots through real sockets (docs/rwas.md): the CLI and the SDK write and read lots on a
// served node (register, split by transfer with its provenance, hold, merge, redeem), the read routes
// (simple list and its query twin, explorer page and detail, 404), the lots moving under the transfer
// rules of their policy definition, forced transfer by the controller only, the family's events on the
// SSE stream, and the routes in the OpenAPI document and the MCP bridge's tools.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  instructions as ix,
  rwaChildId,
  rwaDetail,
  rwaLotId,
  rwasList,
  ToranaClient,
} from '../../src/sdk/index.js';
import { openSse, type SseClient, waitFor } from '../gateway/stream-clients.js';
import { runCli } from '../helpers/cli-in-process.js';
import { type ControlsFixture, controlsFixture, USD } from '../helpers/controls-fixture.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked field by field.
type J = any;

describe('RWA lots (served node)', () => {
  let f: ControlsFixture;
  let sse: SseClient;
  let client: ToranaClient;
  let lot: string;
  let child: string;
  before(async () => {
    f = await controlsFixture({ 'mcp.enabled': true, 'gateway.rate_burst': 100_000 });
    sse = await openSse(f.t.url, '/v1/events/sse');
    client = new ToranaClient({ url: f.t.url });
  });
  after(async () => {
    sse.close();
    await f.t.stopAll();
  });

  const cli = async (args: string[]): Promise<J> => {
    const r = await runCli([...args, '--dir', f.t.dir, '--url', f.t.url, '--json']);
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.err}`);
    return JSON.parse(r.out);
  };
  const get = async (path: string) => {
    const res = await fetch(f.t.url + path);
    return { status: res.status, body: (await res.json()) as J };
  };

  it('the CLI registers, splits, holds and reads lots; provenance and holds on the explorer', async () => {
    const reg = await cli([
      'rwa',
      'register',
      'WR-2026-00042',
      'copper-cathode-grade-a',
      '250.000',
      '--controls',
      USD,
      '--metadata',
      '{"warehouse":"Rotterdam 4"}',
    ]);
    lot = rwaLotId(f.t.admin.id, 'WR-2026-00042');
    assert.equal(reg.status, 'Committed');
    assert.equal(reg.rwa_id, lot);
    assert.equal((await cli(['rwa', 'transfer', lot, f.alice.id, '100'])).status, 'Committed');
    child = rwaChildId(lot, 0);
    assert.equal((await cli(['rwa', 'hold', lot, '10'])).status, 'Committed');
    const got = await cli(['rwa', 'get', child]);
    assert.equal(got.lot.owned_by, f.alice.id);
    assert.equal(got.lot.quantity, '100.000');
    assert.deepEqual(got.parents, [{ id: lot, quantity: '100.000' }]);
    assert.deepEqual(got.metadata, { warehouse: 'Rotterdam 4' });
    const parent = (await get(`/v1/explorer/rwas/${lot}`)).body;
    assert.deepEqual(parent.holds, { held_quantity: '10.000', free_quantity: '140.000', is_frozen: false });
    assert.equal(parent.lot.controls, USD);
    assert.equal(parent.children, 1);
    assert.equal((await get('/v1/explorer/rwas/rwa_0000')).status, 404);
    const listed = await cli(['rwa', 'list', '--owner', f.alice.id]);
    assert.deepEqual(
      listed.items.map((i: J) => i.id),
      [child],
    );
  });

  it('lists lots: the simple-list envelope, its query twin, the explorer page; the SDK reads', async () => {
    const all = (await get('/v1/rwas')).body;
    assert.equal(all.total, 2);
    assert.deepEqual(
      all.items.map((i: J) => i.id),
      [lot, child].sort(),
    );
    const res = await fetch(`${f.t.url}/v1/rwas/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ filter: { eq: ['owned_by', f.t.admin.id] }, limit: 10 }),
    });
    const queried = (await res.json()) as J;
    assert.equal(res.status, 200);
    assert.deepEqual(queried, { items: [all.items.find((i: J) => i.id === lot)], total: 1 });
    const page = (await get('/v1/explorer/rwas?per_page=1&page=2')).body;
    assert.deepEqual(page.pagination, { page: 2, per_page: 1, total_pages: 2, total_items: 2 });
    assert.equal(page.items.length, 1);
    assert.equal((await rwasList(client, { filter: { eq: ['owned_by', f.alice.id] } })).total, 1);
    const detail = await rwaDetail(client, child);
    assert.equal(detail.parents[0]?.id, lot);
  });

  it('a lot moves under the transfer rules of its policy; forced transfer is the controller’s', async () => {
    assert.equal(await f.tx(f.t.admin, [f.ins.freeze(f.alice.id)]), 'Committed');
    assert.equal(await f.tx(f.alice, [ix.transferRwa(child, f.bob.id, '1')]), 'transfer_frozen');
    assert.equal(await f.tx(f.alice, [ix.forceTransferRwa(child, f.bob.id, '1')]), 'permission_denied');
    assert.equal(await f.tx(f.t.admin, [ix.forceTransferRwa(child, f.bob.id, '1')]), 'transfer_frozen');
    assert.equal(await f.tx(f.t.admin, [f.ins.freeze(f.alice.id, false)]), 'Committed');
    assert.equal(await f.tx(f.t.admin, [ix.forceTransferRwa(child, f.bob.id, '1')]), 'Committed');
    assert.equal(await f.tx(f.t.admin, [f.ins.blacklist(f.carol.id)]), 'Committed');
    assert.equal(await f.tx(f.alice, [ix.transferRwa(child, f.carol.id, '1')]), 'account_blacklisted');
    // The held 10 of the parent lot cannot move; the rest can, and merges and redeems conserve it.
    assert.equal(await f.tx(f.t.admin, [ix.redeemRwa(lot, '140.001')]), 'rwa_quantity_unavailable');
    assert.equal(await f.tx(f.t.admin, [ix.redeemRwa(lot, '40')]), 'Committed');
    assert.equal(await f.tx(f.t.admin, [ix.releaseRwa(lot, '10')]), 'Committed');
    assert.equal(await f.tx(f.alice, [ix.transferRwa(child, f.t.admin.id, '99')]), 'Committed');
    assert.equal(await f.tx(f.t.admin, [ix.mergeRwas([lot, child])]), 'Committed');
    const merged = (await get(`/v1/explorer/rwas/${rwaChildId(lot, 1)}`)).body;
    assert.equal(merged.lot.quantity, '209.000'); // 250 − 40 redeemed − 1 forced to bob
    assert.deepEqual(
      merged.parents.map((p: J) => [p.id, p.quantity]),
      [
        [lot, '110.000'],
        [child, '99.000'],
      ],
    );
  });

  it('the family’s events reach the SSE stream', async () => {
    const kinds = () =>
      new Set(sse.messages.filter((m) => m.name === 'data').map((m) => m.data?.data?.kind as string));
    const want = ['RwaRegistered', 'RwaTransferred', 'RwaHoldChanged', 'RwaRedeemed', 'RwaMerged'];
    await waitFor('the lots events', () => want.every((k) => kinds().has(k)));
    const forced = sse.messages.find((m) => m.data?.data?.kind === 'RwaTransferred' && m.data.data.forced);
    assert.equal(forced?.data.data.to, f.bob.id);
  });

  it('the routes are in the OpenAPI document, with examples, and among the MCP tools', async () => {
    const doc = (await get('/openapi.json')).body;
    for (const p of ['/v1/rwas', '/v1/rwas/query', '/v1/explorer/rwas', '/v1/explorer/rwas/{rwa_id}']) {
      const op = doc.paths[p]?.get ?? doc.paths[p]?.post;
      assert.ok(op, p);
      assert.equal(op['x-ledger-family'], 'rwas', p);
      assert.equal(op['x-ledger-app-api'], true, p);
    }
    const detail = doc.paths['/v1/explorer/rwas/{rwa_id}'].get.responses['200'].content['application/json'];
    assert.ok(JSON.stringify(detail).includes('Rotterdam 4'), 'the detail answer has an example');
    const res = await fetch(`${f.t.url}/v1/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    const names = ((await res.json()) as J).result.tools.map((t: J) => t.name as string);
    for (const t of ['listRwas', 'explorerListRwas', 'explorerGetRwa']) assert.ok(names.includes(t), t);
  });
});
