// Aliases wherever an id is accepted (every route and the CLI accept an alias wherever an id is accepted,
// resolved at the committed height; docs/app-api.md "Names in place of ids"). The
// routes are not listed here: the test walks the served node's own OpenAPI document and finds every path
// or query parameter naming an account, an asset definition or an asset, so a route added later with such
// a parameter is checked the day it is registered. Each one must answer an alias exactly as it answers
// the id, and 404 for an alias that names nothing (an ignored or id-only parameter fails one or the other).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Instruction } from '../../src/model/instructions.js';
import { numeric } from '../../src/model/numeric.js';
import { signRequest } from '../../src/sdk/signed-request.js';
import { openRaw } from '../explorer/sse-reader.js';
import { type AppFixture, alice, bob, enc, type J, rose, startAppFixture } from '../gateway/app-fixture.js';
import { runCli as cli } from '../helpers/cli-in-process.js';
import { run } from '../helpers/node.js';
import { fetchOpenApi, type OpenApiDoc } from '../helpers/route-catalog.js';

type Kind = 'account' | 'definition' | 'asset';

const SAMPLES: Record<Kind, { id: string; alias: string; unbound: string }> = {
  account: { id: alice.id, alias: 'alice@wonderland', unbound: 'nobody@wonderland' },
  definition: { id: rose, alias: 'rose', unbound: 'no.such.asset' },
  asset: { id: `${rose}#${alice.id}`, alias: 'rose#alice@wonderland', unbound: 'rose#nobody@wonderland' },
};

/** What a documented parameter names, by its name (and for `{id}`, the collection before it). */
export function kindOf(path: string, where: 'path' | 'query', name: string): Kind | undefined {
  if (where === 'path' && name === 'id') {
    const segments = path.split('/');
    const before = segments[segments.indexOf('{id}') - 1];
    if (before === 'accounts') return 'account';
    if (before === 'definitions' || before === 'asset-definitions') return 'definition';
    if (before === 'assets') return 'asset';
    return undefined;
  }
  if (/account|authority|owned_by|owner|participant/.test(name)) return 'account';
  if (/definition/.test(name)) return 'definition';
  if (/^asset/.test(name)) return 'asset';
  return undefined;
}

interface Target {
  method: string;
  path: string;
  where: 'path' | 'query';
  name: string;
  kind: Kind;
  sse: boolean;
}

function targets(doc: OpenApiDoc): Target[] {
  const out: Target[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      for (const p of op.parameters ?? []) {
        if (p.in !== 'path' && p.in !== 'query') continue;
        const kind = kindOf(path, p.in, p.name);
        if (kind === undefined) continue;
        const sse = path.endsWith('/stream');
        out.push({ method: method.toUpperCase(), path, where: p.in, name: p.name, kind, sse });
      }
    }
  }
  return out;
}

describe('aliases in place of ids, everywhere (served node)', () => {
  let f: AppFixture;
  let doc: OpenApiDoc;
  before(async () => {
    f = await startAppFixture();
    const bound = await run(f.t, f.t.admin, [
      { kind: 'RegisterAccountAlias', alias: 'alice@wonderland', account: alice.id },
      { kind: 'RegisterAccountAlias', alias: 'bob@wonderland', account: bob.id },
      { kind: 'SetAssetAlias', alias: 'rose', definition: rose },
      { kind: 'RegisterAccountAlias', alias: 'root@wonderland', account: f.t.admin.id },
    ] satisfies Instruction[]);
    assert.equal(bound.status.kind, 'Committed', JSON.stringify(bound.status));
    doc = await fetchOpenApi(f.t.url);
  });
  after(async () => {
    await f.t.stopAll();
  });

  /**
   * Calls `url` (a POST with an empty JSON object), signed as alice when the route wants a signed request;
   * SSE answers end at the headers.
   */
  async function call(method: string, url: string, sse: boolean): Promise<{ status: number; body: J }> {
    // JSON where the route offers it; otherwise its own type (the account QR code is SVG).
    const accept = 'application/json, */*;q=0.1';
    const body = method === 'GET' ? undefined : '{}';
    const base = { accept, ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
    let res = await fetch(f.t.url + url, { method, headers: base, ...(body === undefined ? {} : { body }) });
    if (res.status === 401) {
      await res.body?.cancel();
      const headers = signRequest({
        method,
        url,
        account: alice.id,
        signer: alice.key,
        ...(body === undefined ? {} : { body }),
      });
      res = await fetch(f.t.url + url, {
        method,
        headers: { ...base, ...headers },
        ...(body === undefined ? {} : { body }),
      });
    }
    if (sse && res.status === 200) {
      assert.match(res.headers.get('content-type') ?? '', /text\/event-stream/);
      await res.body?.cancel();
      return { status: 200, body: undefined };
    }
    const json = (res.headers.get('content-type') ?? '').includes('json');
    return { status: res.status, body: json ? ((await res.json()) as J) : await res.text() };
  }

  function urlOf(t: Target, value: string): string {
    const filled = t.path.replace(`{${t.name}}`, enc(value));
    return t.where === 'query' ? `${filled}?${t.name}=${enc(value)}` : filled;
  }

  it('finds the parameters: accounts, definitions and assets, in paths and in query strings', () => {
    const found = new Set(targets(doc).map((t) => `${t.method} ${t.path} ${t.name}`));
    // A floor, not the list: these must be among what the walk finds (else the walk itself is broken).
    for (const known of [
      'GET /v1/accounts/{id} id',
      'GET /v1/assets/definitions/{id}/holders id',
      'GET /v1/explorer/assets/{id} id',
      'GET /v1/explorer/assets owned_by',
      'GET /v1/explorer/assets definition',
      'GET /v1/explorer/transactions authority',
      'GET /v1/explorer/instructions account',
      'GET /v1/explorer/instructions/stream asset_id',
      'GET /v1/transactions/history asset_id',
    ])
      assert.ok(found.has(known), `the walk misses ${known}`);
  });

  it('every such parameter answers an alias as it answers the id, and 404 for an unbound alias', async (t) => {
    const all = targets(doc);
    assert.ok(all.length >= 20, `only ${all.length} parameters found`);
    const skipped: string[] = [];
    for (const x of all) {
      const what = `${x.method} ${x.path} ${x.name}`;
      // Routes this walk cannot call without more samples (another path parameter, another method) are
      // listed, not failed: add their samples here when such a route appears.
      const others = (x.path.match(/\{\w+\}/g) ?? []).filter((p) => p !== `{${x.name}}`);
      if ((x.method !== 'GET' && x.method !== 'POST') || others.length > 0) {
        skipped.push(what);
        continue;
      }
      const s = SAMPLES[x.kind];
      const byId = await call(x.method, urlOf(x, s.id), x.sse);
      assert.ok(byId.status < 500, `${what} by id: ${JSON.stringify(byId.body)}`);
      const byAlias = await call(x.method, urlOf(x, s.alias), x.sse);
      assert.equal(byAlias.status, byId.status, `${what} by alias: ${JSON.stringify(byAlias.body)}`);
      assert.deepEqual(byAlias.body, byId.body, `${what}: the alias answers otherwise than the id`);
      const unbound = await call(x.method, urlOf(x, s.unbound), x.sse);
      assert.equal(unbound.status, 404, `${what} unbound alias: ${JSON.stringify(unbound.body)}`);
      assert.equal(unbound.body.code, 'not_found', what);
      // The 404 is the alias's (the resolver names it), not the route's own for an unknown entity.
      const named = x.kind === 'definition' ? s.unbound : 'nobody@wonderland';
      assert.ok(
        JSON.stringify(unbound.body.details).includes(named),
        `${what}: ${JSON.stringify(unbound.body)}`,
      );
    }
    if (skipped.length > 0) t.diagnostic(`not walked (no samples): ${skipped.join('; ')}`);
    assert.ok(all.length - skipped.length >= 20, `only ${all.length - skipped.length} parameters walked`);
  });

  it('list filters take aliases in id fields: POST …/query bodies and the GET filter alike', async () => {
    const idsOf = (r: { status: number; body: J }) => {
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return (r.body.items as { id: string }[]).map((i) => i.id);
    };
    const cases: [string, unknown, unknown][] = [
      ['/v1/accounts', { eq: ['id', 'alice@wonderland'] }, { eq: ['id', alice.id] }],
      [
        '/v1/assets/definitions',
        { in: ['id', ['rose', 'tulip#wonderland']] },
        { in: ['id', [rose, 'tulip#wonderland']] },
      ],
      ['/v1/nfts', { eq: ['owned_by', 'alice@wonderland'] }, { eq: ['owned_by', alice.id] }],
      ['/v1/domains', { ne: ['owned_by', 'bob@wonderland'] }, { ne: ['owned_by', bob.id] }],
    ];
    for (const [list, byAlias, byId] of cases) {
      const want = idsOf(await f.post(`${list}/query`, { filter: byId }));
      assert.ok(want.length > 0, `${list}: the id filter matches nothing`);
      assert.deepEqual(idsOf(await f.post(`${list}/query`, { filter: byAlias })), want, list);
      assert.deepEqual(idsOf(await f.get(`${list}?filter=${enc(JSON.stringify(byAlias))}`)), want, list);
    }
    // Balances of a definition and of an account, filtered by the other side's alias.
    const holders = await f.get(
      `/v1/assets/definitions/rose/holders?filter=${enc(JSON.stringify({ eq: ['account', 'bob@wonderland'] }))}`,
    );
    assert.deepEqual(idsOf(holders), [`${rose}#${bob.id}`]);
    const balances = await f.get(
      `/v1/accounts/${enc('alice@wonderland')}/assets?filter=${enc(JSON.stringify({ eq: ['definition', 'rose'] }))}`,
    );
    assert.deepEqual(idsOf(balances), [`${rose}#${alice.id}`]);
    // An alias naming nothing is 404, as on paths; other fields and operators are not touched.
    await f.refused('/v1/accounts/query', 404, 'not_found', { filter: { eq: ['id', 'nobody@wonderland'] } });
    const other = await f.post('/v1/domains/query', { filter: { eq: ['id', 'rose'] } });
    assert.deepEqual(idsOf(other), []);
  });

  it('the CLI takes aliases for --account and for every account, definition or asset it is given', async () => {
    const common = ['--dir', f.t.dir, '--url', f.t.url, '--json'];
    const ok = async (args: string[]) => {
      const r = await cli([...args, ...common]);
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.err}`);
      return JSON.parse(r.out) as J;
    };
    // Signing as an account alias: the transaction's authority is the account it names.
    await ok(['asset', 'mint', 'rose', 'bob@wonderland', '2', '--account', 'root@wonderland']);
    const mine = await ok(['explorer', 'txs', '--authority', 'root@wonderland', '--per-page', '1']);
    assert.equal(mine.items[0].authority, f.t.admin.id);
    const unbound = await cli(['whoami', ...common, '--account', 'nobody@wonderland']);
    assert.notEqual(unbound.code, 0);
    // Explorer filters and one balance, by alias and by id alike.
    const pairs: [string[], string[]][] = [
      [
        ['explorer', 'txs', '--authority', 'alice@wonderland'],
        ['explorer', 'txs', '--authority', alice.id],
      ],
      [
        ['explorer', 'instructions', '--account', 'bob@wonderland', '--asset', 'rose'],
        ['explorer', 'instructions', '--account', bob.id, '--asset', rose],
      ],
      [
        ['explorer', 'assets', '--owned-by', 'alice@wonderland', '--definition', 'rose'],
        ['explorer', 'assets', '--owned-by', alice.id, '--definition', rose],
      ],
      [
        ['explorer', 'asset', 'rose#alice@wonderland'],
        ['explorer', 'asset', `${rose}#${alice.id}`],
      ],
    ];
    for (const [byAlias, byId] of pairs) {
      const want = await ok(byId);
      assert.deepEqual(await ok(byAlias), want, byAlias.join(' '));
    }
  });

  it('a stream filtered by an alias follows the account the alias names', async () => {
    const url = (q: string) => `${f.t.url}/v1/explorer/transactions/stream?${q}`;
    const byAlias = await openRaw(url(`authority=${enc('alice@wonderland')}&asset_id=rose`));
    const other = await openRaw(url(`authority=${enc('bob@wonderland')}`));
    try {
      assert.equal(byAlias.status, 200);
      const mine = await run(f.t, alice, [
        { kind: 'TransferAsset', source: `${rose}#${alice.id}`, destination: bob.id, amount: numeric('1') },
      ]);
      assert.equal(mine.status.kind, 'Committed');
      const [m] = await byAlias.until(1);
      assert.equal(m!.data.hash, mine.hash);
      assert.equal(m!.data.authority, alice.id);
      assert.deepEqual(other.messages, []);
    } finally {
      byAlias.close();
      other.close();
    }
  });
});
