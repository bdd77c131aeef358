// The read path: read answers serialised once per committed state (gateway/answer-cache.ts)
// through a real socket. A cached answer is reused only while the committed state stands still; the
// first read after a commit sees the commit; headers and limits are those of an uncached answer.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { run } from '../helpers/node.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';

const enc = encodeURIComponent;
/** Headers that must not depend on whether the answer came from the cache (`date` aside). */
const STABLE_HEADERS = ['content-type', 'content-length', 'x-ledger-api-version', 'x-ledger-api-supported'];

describe('answers cached per committed state (real socket)', () => {
  let t: ServedTestNode;
  before(async () => {
    t = await startServedNode({ 'telemetry.profile': 'full' });
  });
  after(async () => {
    await t?.stopAll();
  });

  const get = async (path: string, accept?: string) => {
    const res = await fetch(`${t.url}${path}`, accept === undefined ? {} : { headers: { accept } });
    const body = Buffer.from(await res.arrayBuffer());
    const headers = Object.fromEntries(STABLE_HEADERS.map((h) => [h, res.headers.get(h)]));
    return { status: res.status, body, headers };
  };
  const lookups = async () => {
    const text = await (await fetch(`${t.url}/metrics`)).text();
    const count = (result: string) => {
      const m = new RegExp(`^http_answer_cache_lookups_total\\{result="${result}"\\} (\\d+)$`, 'm').exec(
        text,
      );
      return Number(m?.[1] ?? Number.NaN);
    };
    return { hit: count('hit'), miss: count('miss') };
  };

  it('answers a repeated read from the cache with the same bytes and headers', async () => {
    const path = `/v1/accounts/${enc(t.admin.id)}`;
    const first = await get(path);
    const before = await lookups();
    const second = await get(path);
    const afterwards = await lookups();
    assert.equal(second.status, 200);
    assert.deepEqual(second.body, first.body);
    assert.deepEqual(second.headers, first.headers);
    assert.equal(second.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(second.headers['x-ledger-api-version'], '1');
    assert.equal(afterwards.hit, before.hit + 1, 'the second read is a cache hit');
    assert.equal(afterwards.miss, before.miss);
  });

  it('keeps the codec and JSON answers of one URL apart', async () => {
    const path = '/v1/domains?limit=5';
    const json = await get(path);
    const codec = await get(path, 'application/x-codec');
    const again = await get(path, 'application/x-codec');
    assert.equal(codec.headers['content-type'], 'application/x-codec');
    assert.deepEqual(again.body, codec.body);
    assert.deepEqual(again.headers, codec.headers);
    assert.notDeepEqual(codec.body, json.body);
    assert.equal((await get(path)).headers['content-type'], 'application/json; charset=utf-8');
  });

  it('serves the new state right after a commit changes the account', async () => {
    const path = `/v1/accounts/${enc(t.admin.id)}`;
    await get(path);
    await get(path);
    for (const nick of ['al', 'bo']) {
      await run(t, t.admin, [
        { kind: 'SetKeyValue', target: { kind: 'Account', id: t.admin.id }, key: 'nick', value: nick },
      ]);
      const answer = JSON.parse((await get(path)).body.toString()) as { metadata: Record<string, unknown> };
      assert.equal(answer.metadata.nick, nick);
    }
  });

  it('lists a domain registered by the last commit, and /status moves with the height', async () => {
    const names = async () =>
      (
        JSON.parse((await get('/v1/domains?limit=5')).body.toString()) as { items: { id: string }[] }
      ).items.map((d) => d.id);
    const status = async () =>
      JSON.parse((await get('/status')).body.toString()) as { blocks: number; state_root: string };
    assert.ok(!(await names()).includes('cached_land'));
    const was = await status();
    await run(t, t.admin, [{ kind: 'RegisterDomain', id: 'cached_land', metadata: new Map() }]);
    assert.ok((await names()).includes('cached_land'));
    const now = await status();
    assert.equal(now.blocks, was.blocks + 1);
    assert.notEqual(now.state_root, was.state_root);
  });

  it('keeps every limit: a refused page is refused again, never cached', async () => {
    await get('/v1/domains?limit=500');
    for (let i = 0; i < 2; i++) {
      const r = await get('/v1/domains?limit=501');
      assert.equal(r.status, 400);
      assert.equal((JSON.parse(r.body.toString()) as { code: string }).code, 'invalid_pagination');
    }
    const unknown = `/v1/accounts/${enc(t.admin.id.replace(/@.*/, '@nowhere'))}`;
    assert.equal((await get(unknown)).status, 404);
    assert.equal((await get(unknown)).status, 404);
  });
});
