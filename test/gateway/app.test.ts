// Application reads: the domain, asset definition, account and NFT routes of src/accounts/ (the
// app-reads family) through a real socket, answering from state built by real transactions.
// Explorer: app-explorer.test.ts.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DomainListView } from '../../src/accounts/views.js';
import { newAccount } from '../helpers/tx.js';
import {
  type AppFixture,
  alice,
  bob,
  carol,
  deed,
  enc,
  ids,
  type J,
  rose,
  startAppFixture,
} from './app-fixture.js';

describe('application read routes (real socket)', () => {
  let f: AppFixture;
  before(async () => {
    f = await startAppFixture();
  });
  after(async () => {
    await f?.t.stopAll();
  });
  const get = (path: string) => f.get(path);
  const post = (path: string, body: unknown) => f.post(path, body);
  const refused = (path: string, status: number, code: string, body?: unknown) =>
    f.refused(path, status, code, body);

  describe('domains', () => {
    it('lists {items, total} in id order with owner and metadata', async () => {
      const r = await get('/v1/domains');
      assert.equal(r.status, 200);
      assert.deepEqual(ids(r.body.items), ['looking_glass', 'system', 'wonderland']);
      assert.equal(r.body.total, 3);
      const w = r.body.items[2];
      assert.deepEqual(w, { id: 'wonderland', owned_by: f.t.admin.id, metadata: { tier: 'gold' } });
    });

    it('pages: limit, offset beyond the end, limit 0, above the cap and non-integer', async () => {
      assert.deepEqual(ids((await get('/v1/domains?limit=1&offset=1')).body.items), ['system']);
      const beyond = await get('/v1/domains?offset=50');
      assert.deepEqual(beyond.body, { items: [], total: 3 });
      for (const q of ['limit=0', 'limit=501', 'limit=1.5', 'limit=abc', 'offset=-1'])
        await refused(`/v1/domains?${q}`, 400, 'invalid_pagination');
      assert.equal((await get('/v1/domains?limit=500')).status, 200);
    });

    it('filters with eq, in and metadata.<key>, and sorts both ways', async () => {
      const f = (e: unknown) => `/v1/domains?filter=${enc(JSON.stringify(e))}`;
      assert.deepEqual(ids((await get(f({ eq: ['id', 'wonderland'] }))).body.items), ['wonderland']);
      const inList = await get(f({ in: ['id', ['system', 'looking_glass', 'nowhere']] }));
      assert.deepEqual(ids(inList.body.items), ['looking_glass', 'system']);
      assert.equal(inList.body.total, 2);
      assert.deepEqual(ids((await get(f({ eq: ['metadata.tier', 'silver'] }))).body.items), [
        'looking_glass',
      ]);
      assert.deepEqual(ids((await get('/v1/domains?sort=id:desc')).body.items), [
        'wonderland',
        'system',
        'looking_glass',
      ]);
      // Missing values sort last in both directions; ties fall back to id order.
      assert.deepEqual(ids((await get('/v1/domains?sort=metadata.tier:desc')).body.items), [
        'looking_glass',
        'wonderland',
        'system',
      ]);
    });

    it('refuses bad filters and sorts with invalid_filter / invalid_sort', async () => {
      await refused(`/v1/domains?filter=${enc('{"eq":')}`, 400, 'invalid_filter');
      await refused(`/v1/domains?filter=${enc('{"near":["id",1]}')}`, 400, 'invalid_filter');
      let deep: unknown = { eq: ['id', 'x'] };
      for (let i = 0; i < 10; i++) deep = { not: deep };
      const e = await refused(`/v1/domains?filter=${enc(JSON.stringify(deep))}`, 400, 'invalid_filter');
      assert.match(e.details.reason, /deeper than 10/);
      await refused('/v1/domains?sort=id:sideways', 400, 'invalid_sort');
      await refused('/v1/domains?sort=colour:asc', 400, 'invalid_sort');
    });

    it('reads one domain; unknown is 404, malformed is 400', async () => {
      const r = await get('/v1/domains/wonderland');
      assert.equal(r.status, 200);
      assert.equal(r.body.id, 'wonderland');
      await refused('/v1/domains/nowhere', 404, 'not_found');
      const bad = await refused(`/v1/domains/${enc('bad#name')}`, 400, 'bad_request');
      assert.equal(bad.details.expected, '<name>');
    });

    it('answers in the codec when Accept prefers it, with the same value', async () => {
      const v = await f.codec('/v1/domains', DomainListView);
      assert.equal(v.total, 3);
      assert.deepEqual(DomainListView.toJson(v), (await get('/v1/domains')).body);
    });
  });

  describe('asset definitions', () => {
    it('lists items with id, name, total_quantity, scale, mintable, owner', async () => {
      const r = await get('/v1/assets/definitions');
      assert.equal(r.status, 200);
      // The dev genesis defines the native asset gas#system (docs/conference.md §Billing).
      assert.deepEqual(ids(r.body.items), ['gas#system', 'gem#looking_glass', rose, 'tulip#wonderland']);
      const item = r.body.items[2];
      assert.equal(item.name, 'rose');
      assert.equal(item.total_quantity, '100.50');
      assert.equal(item.scale, 2);
      assert.deepEqual(item.mintable, { kind: 'Infinitely' });
      assert.equal(item.owned_by, f.t.admin.id);
      assert.deepEqual(item.metadata, { color: 'red' });
    });

    it('filters total_quantity numerically (gt on decimals) and sorts by it', async () => {
      const gt = await get(`/v1/assets/definitions?filter=${enc('{"gt":["total_quantity","5"]}')}`);
      assert.deepEqual(ids(gt.body.items), ['gas#system', rose, 'tulip#wonderland']);
      // "1.500" > "1.5" as text but equal as numbers; "100.50" > "7" numerically, not as text.
      const sorted = await get('/v1/assets/definitions?sort=total_quantity:desc');
      assert.deepEqual(ids(sorted.body.items), ['gas#system', rose, 'tulip#wonderland', 'gem#looking_glass']);
      const eq = await get(`/v1/assets/definitions?filter=${enc('{"eq":["total_quantity","1.5"]}')}`);
      assert.deepEqual(ids(eq.body.items), ['gem#looking_glass']);
    });

    it('reads one definition and its holders; bad and unknown ids', async () => {
      const one = await get(`/v1/assets/definitions/${enc(rose)}`);
      assert.equal(one.status, 200);
      assert.equal(one.body.total_quantity, '100.50');
      const holders = await get(`/v1/assets/definitions/${enc(rose)}/holders`);
      assert.equal(holders.status, 200);
      assert.equal(holders.body.total, 2);
      const byAccount = Object.fromEntries(holders.body.items.map((a: J) => [a.account, a.value]));
      assert.deepEqual(byAccount, { [alice.id]: '75.25', [bob.id]: '25.25' });
      const rich = await get(
        `/v1/assets/definitions/${enc(rose)}/holders?filter=${enc('{"gt":["value","50"]}')}`,
      );
      assert.deepEqual(
        rich.body.items.map((a: J) => a.account),
        [alice.id],
      );
      await refused('/v1/assets/definitions/Rose', 400, 'bad_request');
      // A bare label is an asset alias (docs/data-model.md §Aliases): unbound here.
      await refused('/v1/assets/definitions/rose', 404, 'not_found');
      await refused(`/v1/assets/definitions/${enc('lily#wonderland')}`, 404, 'not_found');
      await refused(`/v1/assets/definitions/${enc('lily#wonderland')}/holders`, 404, 'not_found');
      await refused(`/v1/assets/definitions/${enc(rose)}/holders?limit=0`, 400, 'invalid_pagination');
    });
  });

  describe('accounts', () => {
    it('lists accounts with their domain; filters by domain', async () => {
      const all = await get('/v1/accounts');
      // With the genesis admin, the ISO 20022 bridge account and the shielded pool account.
      assert.equal(all.body.total, 6);
      const inWonderland = await get(`/v1/accounts?filter=${enc('{"eq":["domain","wonderland"]}')}`);
      assert.deepEqual(ids(inWonderland.body.items).sort(), [alice.id, bob.id].sort());
      const nick = await get(`/v1/accounts?filter=${enc('{"exists":"metadata.nick"}')}`);
      assert.deepEqual(ids(nick.body.items), [alice.id]);
    });

    it('reads an account (percent-encoded @) with its assets, permissions and roles', async () => {
      const r = await get(`/v1/accounts/${enc(alice.id)}`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.id, alice.id);
      assert.equal(r.body.domain, 'wonderland');
      assert.deepEqual(r.body.metadata, { nick: 'al' });
      assert.deepEqual(
        r.body.assets.map((a: J) => [a.id, a.value]),
        [[`${rose}#${alice.id}`, '75.25']],
      );
      assert.equal(r.body.assets_total, 1);
      assert.deepEqual(r.body.permissions, [
        { name: 'CanMintAssetWithDefinition', payload: { asset_definition: rose } },
      ]);
      assert.deepEqual(r.body.roles, []);
      // The raw '@' form of the path works as well.
      assert.equal((await get(`/v1/accounts/${alice.id}`)).status, 200);
    });

    it('pages an account’s assets and permissions', async () => {
      const assets = await get(`/v1/accounts/${enc(bob.id)}/assets?sort=value:desc`);
      assert.deepEqual(
        assets.body.items.map((a: J) => a.value),
        ['25.25', '7'],
      );
      const perms = await get(`/v1/accounts/${enc(alice.id)}/permissions`);
      assert.equal(perms.status, 200);
      assert.equal(perms.body.total, 1);
      assert.equal(perms.body.items[0].name, 'CanMintAssetWithDefinition');
    });

    it('lists an account’s transactions newest first with hash, height, index, authority, result', async () => {
      const r = await get(`/v1/accounts/${enc(alice.id)}/transactions`);
      assert.equal(r.status, 200);
      assert.equal(r.body.total, 4);
      assert.deepEqual(
        r.body.items.map((x: J) => x.hash),
        [f.hashes.nft, f.hashes.rejected, f.hashes.transfer, f.hashes.setup],
      );
      const rejected = r.body.items[1];
      assert.equal(rejected.block_height, f.heights.rejected);
      assert.equal(rejected.index, 0);
      assert.equal(rejected.authority, alice.id);
      assert.equal(rejected.result.kind, 'Rejected');
      assert.equal(rejected.result.reason.code, 'insufficient_funds');
      assert.equal(rejected.instructions[0].kind, 'TransferAsset');
      const page = await get(`/v1/accounts/${enc(alice.id)}/transactions?limit=2&offset=1`);
      assert.deepEqual(
        page.body.items.map((x: J) => x.hash),
        [f.hashes.rejected, f.hashes.transfer],
      );
      await refused(`/v1/accounts/${enc(alice.id)}/transactions?limit=0`, 400, 'invalid_pagination');
    });

    it('answers 404 for unknown accounts and 400 for malformed ids on every account route', async () => {
      const stranger = enc(newAccount('wonderland', 9).id);
      const malformed = enc('Not A Key@wonderland');
      for (const sub of ['', '/assets', '/permissions', '/transactions']) {
        await refused(`/v1/accounts/${stranger}${sub}`, 404, 'not_found');
        // label@domain is an account alias (docs/data-model.md §Aliases): unbound here.
        await refused(`/v1/accounts/${enc('not-a-key@wonderland')}${sub}`, 404, 'not_found');
        const e = await refused(`/v1/accounts/${malformed}${sub}`, 400, 'bad_request');
        assert.equal(e.details.expected, '<public key>@<domain>');
      }
    });
  });

  describe('NFTs', () => {
    it('lists and reads NFTs (percent-encoded $)', async () => {
      const r = await get('/v1/nfts');
      assert.deepEqual(r.body, {
        items: [{ id: deed, name: 'deed', domain: 'wonderland', owned_by: alice.id, content: { acres: 3 } }],
        total: 1,
      });
      assert.equal((await get(`/v1/nfts/${enc(deed)}`)).body.owned_by, alice.id);
      await refused(`/v1/nfts/${enc('map$wonderland')}`, 404, 'not_found');
      await refused('/v1/nfts/deed', 400, 'bad_request');
    });
  });

  describe('POST /v1/<resource>/query', () => {
    it('takes filter, sort, limit and offset in a JSON body', async () => {
      const d = await post('/v1/domains/query', { filter: { ne: ['id', 'system'] }, sort: 'id:desc' });
      assert.equal(d.status, 200);
      assert.deepEqual(ids(d.body.items), ['wonderland', 'looking_glass']);
      const a = await post('/v1/accounts/query', { filter: { eq: ['domain', 'looking_glass'] } });
      assert.deepEqual(ids(a.body.items), [carol.id]);
      const defs = await post('/v1/assets/definitions/query', {
        filter: { and: [{ gte: ['total_quantity', '7'] }, { eq: ['metadata.color', 'red'] }] },
      });
      assert.deepEqual(ids(defs.body.items), [rose]);
      const nfts = await post('/v1/nfts/query', {
        filter: { eq: ['owned_by', alice.id] },
        limit: 1,
        offset: 0,
      });
      assert.deepEqual(ids(nfts.body.items), [deed]);
      assert.equal((await post('/v1/domains/query', {})).body.total, 3);
    });

    it('refuses bad pagination, filters and sorts in the body', async () => {
      await refused('/v1/domains/query', 400, 'invalid_pagination', { limit: 0 });
      await refused('/v1/domains/query', 400, 'invalid_pagination', { limit: 2.5 });
      await refused('/v1/domains/query', 400, 'invalid_filter', { filter: { eq: 'id' } });
      await refused('/v1/domains/query', 400, 'invalid_sort', { sort: 'owner:asc' });
    });
  });
});
