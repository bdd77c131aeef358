// `explorer.backend = "postgres"` against the embedded backend, route by route. One chain is built by
// real transactions on a served node (test/gateway/app-fixture.ts's world plus more transfers, mints,
// failures, aliases and a subscription plan with a subscriber and a charge), indexed into a PostgreSQL of its own by the real indexer (`runIndexer` over the node's block
// stream); every explorer and history route of the live route table (not a hand-written list: a route
// added to either family is compared the day it is registered) is asked a set of requests (path values
// drawn from the chain, paging, filters, every cursor followed) through the real socket, first with the
// embedded backend, then after a restart of the same node on the same directory with the postgres one:
// statuses and bodies must be identical, and the SSE streams replay the same items from the same
// resumption points. Then the indexer lags: the node commits more blocks, the postgres
// backend keeps answering at the indexed height (x-torana-indexed-height) and moves when the indexer does.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runIndexer } from '../../src/indexer/indexer.js';
import { numeric } from '../../src/model/numeric.js';
import { transactionHash } from '../../src/model/transaction.js';
import { genesisFromJson, genesisRoster } from '../../src/node/genesis.js';
import { INDEXED_HEIGHT_HEADER } from '../../src/node/read-backend.js';
import { type ServedNode, serveNode } from '../../src/node/serve.js';
import { signRequest } from '../../src/sdk/signed-request.js';
import { type AppFixture, alice, bob, carol, type J, rose, startAppFixture } from '../gateway/app-fixture.js';
import { run } from '../helpers/node.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { fetchOpenApi, type LiveRoute, liveRoutes, validParamValues } from '../helpers/route-catalog.js';
import { openRaw, type RawMessage } from './sse-reader.js';

const FAMILIES = new Set(['explorer', 'history']);
/** Answer fields that are this node's wall-clock observations, not chain data (documented). */
const WALL_CLOCK_FIELDS = new Set(['commit_time_ms_avg']);

interface Answer {
  status: number;
  body: J;
  indexedHeight: string | null;
}

async function ask(url: string, path: string, init: { method: string; body?: unknown }): Promise<Answer> {
  let headers: Record<string, string> = { accept: 'application/json' };
  const send = () =>
    fetch(`${url}${path}`, {
      method: init.method,
      headers: init.body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
  let res = await send();
  if (res.status === 401 && init.method === 'GET') {
    // A signed app request (the caller history): signed by alice, who has transactions.
    await res.body?.cancel();
    headers = {
      ...headers,
      ...signRequest({ method: 'GET', url: path, account: alice.id, signer: alice.key }),
    };
    res = await send();
  }
  const text = await res.text();
  return {
    status: res.status,
    body: text === '' ? null : JSON.parse(text),
    indexedHeight: res.headers.get(INDEXED_HEIGHT_HEADER),
  };
}

function withoutWallClock(v: J): J {
  if (Array.isArray(v)) return v.map(withoutWallClock);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(
    Object.entries(v)
      .filter(([k]) => !WALL_CLOCK_FIELDS.has(k))
      .map(([k, x]) => [k, withoutWallClock(x)]),
  );
}

interface ChainValues {
  heights: string[];
  blockHashes: string[];
  txHashes: string[];
  accounts: string[];
  domains: string[];
  definitions: string[];
  assets: string[];
  nfts: string[];
}

async function chainValues(url: string): Promise<ChainValues> {
  const items = async (path: string) => ((await ask(url, path, { method: 'GET' })).body?.items ?? []) as J[];
  const blocks = await items('/v1/explorer/blocks?per_page=500');
  return {
    heights: blocks.map((b) => String(b.height)),
    blockHashes: blocks.slice(0, 3).map((b) => b.hash),
    txHashes: (await items('/v1/explorer/transactions?per_page=500')).map((t) => t.hash),
    accounts: (await items('/v1/explorer/accounts?per_page=500')).map((a) => a.id),
    domains: (await items('/v1/explorer/domains?per_page=500')).map((d) => d.id),
    definitions: (await items('/v1/explorer/asset-definitions?per_page=500')).map((d) => d.id),
    assets: (await items('/v1/explorer/assets?per_page=500')).map((a) => a.id),
    nfts: (await items('/v1/explorer/nfts?per_page=500')).map((n) => n.id),
  };
}

/** Values of one path parameter: what the chain holds for the kind the route names, plus one unknown. */
function paramValues(r: LiveRoute, param: string, v: ChainValues): string[] {
  const u = r.url;
  const known =
    param === 'index'
      ? ['0', '1', '12', '99']
      : u.startsWith('/v1/explorer/blocks/')
        ? [...v.heights, ...v.blockHashes, '9999', 'ab'.repeat(32)]
        : u.startsWith('/v1/explorer/transactions/') || u.startsWith('/v1/explorer/instructions/')
          ? [...v.txHashes, 'cd'.repeat(32)]
          : /\/accounts\//.test(u)
            ? [...v.accounts, 'alice@wonderland', 'nobody@wonderland']
            : /\/domains\//.test(u)
              ? [...v.domains, 'nowhere']
              : /\/asset-definitions\/|\/assets\/definitions\//.test(u)
                ? [...v.definitions, 'rose', 'none#wonderland']
                : /\/assets\//.test(u)
                  ? [...v.assets]
                  : /\/nfts\//.test(u)
                    ? [...v.nfts, 'none$wonderland']
                    : undefined;
  // A route this file does not know yet: the catalog's values by parameter name.
  return (
    known ??
    validParamValues(r, param, {
      domainId: v.domains[0]!,
      accountId: v.accounts[0]!,
      assetDefinitionId: v.definitions[0],
      nftId: v.nfts[0],
      blockHash: v.blockHashes[0]!,
      txHash: v.txHashes[0]!,
      height: '1',
      statusField: 'blocks',
    })
  );
}

/** Query strings for a route: none, each documented parameter alone with a few values, and pairs. */
function queries(r: LiveRoute, v: ChainValues): string[] {
  const names = new Set((r.operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name));
  const values: Record<string, string[]> = {
    per_page: ['1', '2', '501'],
    page: ['1', '2', '3', '0'],
    limit: ['1', '2', '3'],
    offset: ['0', '1', '2'],
    status: ['ok', 'rejected', 'all', 'Committed', 'Rejected', 'bogus'],
    kind: ['TransferAsset', 'MintAsset', 'RegisterDomain'],
    account: [alice.id, bob.id],
    authority: [alice.id],
    definition: [rose],
    asset_definition: [rose],
    block: ['2', '3', v.heights[0]!],
    from_ms: ['0', '9999999999999'],
    to_ms: ['0', '9999999999999'],
    asset_id: [`${rose}#${alice.id}`],
    sort: ['id:asc', 'id:desc'],
    filter: ['{"exists":"id"}'],
  };
  const out = [''];
  for (const n of names) for (const x of values[n] ?? []) out.push(`${n}=${encodeURIComponent(x)}`);
  for (const a of ['per_page', 'limit'])
    for (const b of ['page', 'offset', 'status', 'kind', 'account', 'block'])
      if (names.has(a) && names.has(b))
        out.push(`${a}=2&${b}=${encodeURIComponent(values[b]![1] ?? values[b]![0]!)}`);
  return out;
}

interface Request {
  method: string;
  path: string;
  body?: unknown;
}

function requestsOf(r: LiveRoute, v: ChainValues): Request[] {
  let paths = [r.url];
  for (const p of r.params)
    paths = paths.flatMap((u) => paramValues(r, p, v).map((x) => u.replace(`:${p}`, encodeURIComponent(x))));
  if (r.method === 'POST')
    return paths.flatMap((path) =>
      [
        {},
        { limit: 2 },
        { limit: 1, offset: 1 },
        { status: 'rejected' },
        { kind: 'TransferAsset', limit: 2 },
      ].map((body) => ({ method: 'POST', path, body })),
    );
  return paths.flatMap((path) =>
    queries(r, v).map((q) => ({ method: 'GET', path: q === '' ? path : `${path}?${q}` })),
  );
}

function withCursor(path: string, cursor: string): string {
  const u = new URL(path, 'http://x');
  u.searchParams.set('cursor', cursor);
  return `${u.pathname}${u.search}`;
}

/** Every request's answer, following each `next_cursor` to the end. */
async function answers(url: string, reqs: readonly Request[]): Promise<Map<string, Answer>> {
  const out = new Map<string, Answer>();
  const queue = [...reqs];
  for (let q = queue.shift(); q !== undefined; q = queue.shift()) {
    const key = `${q.method} ${q.path} ${JSON.stringify(q.body ?? null)}`;
    if (out.has(key)) continue;
    const a = await ask(url, q.path, q);
    out.set(key, a);
    const next = a.body?.next_cursor;
    if (typeof next === 'string')
      queue.push(
        q.method === 'GET'
          ? {
              method: 'GET',
              path: withCursor(q.path, next),
            }
          : { method: 'POST', path: q.path, body: { ...(q.body as object), cursor: next } },
      );
  }
  return out;
}

/** Resumption points in each of the streams' id forms (block, transaction, instruction); the others 400. */
const STREAM_RESUME_IDS = ['1', '2:0', '2:0:3'];

function streamPaths(streams: readonly LiveRoute[]): string[] {
  return streams.flatMap((r) => {
    const names = new Set((r.operation.parameters ?? []).map((p) => p.name));
    return STREAM_RESUME_IDS.flatMap((id) => [
      `${r.url}?last_event_id=${id}`,
      ...(names.has('kind') ? [`${r.url}?last_event_id=${id}&kind=TransferAsset`] : []),
      ...(names.has('account') ? [`${r.url}?last_event_id=${id}&account=${encodeURIComponent(bob.id)}`] : []),
    ]);
  });
}

/** Each stream's replay (opened together; read until nothing new arrives for a second), or its refusal. */
async function replays(
  url: string,
  paths: readonly string[],
): Promise<Map<string, { status: number; error?: J; messages: RawMessage[] }>> {
  const open = await Promise.all(paths.map((p) => openRaw(`${url}${p}`)));
  const t0 = Date.now();
  for (let seen = -1, now = 0; Date.now() - t0 < 30_000; seen = now) {
    now = open.reduce((n, s) => n + s.messages.length, 0);
    if (now === seen) break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  for (const s of open) s.close();
  return new Map(
    paths.map((p, i) => [p, { status: open[i]!.status, error: open[i]!.error, messages: open[i]!.messages }]),
  );
}

async function indexTo(pgs: TestPostgres, url: string, dir: string, height: number): Promise<void> {
  const json = JSON.parse(await readFile(join(dir, 'genesis.json'), 'utf8')) as { chain_id: string };
  const genesis = genesisFromJson(json, json.chain_id);
  const stop = new AbortController();
  let at = 0;
  const indexing = runIndexer({
    pg: pgs.conninfo('explorer'),
    from: url,
    genesis: {
      chainId: genesis.chainId,
      validators: genesisRoster(genesis),
      transactionHash: transactionHash(genesis.transaction),
    },
    signal: stop.signal,
    onWritten: (h) => {
      at = h;
    },
  });
  indexing.catch(() => undefined);
  while (at < height) await Promise.race([indexing, new Promise((r) => setTimeout(r, 20))]);
  stop.abort();
  await indexing;
}

describe('explorer.backend = "postgres" answers as the embedded backend', { timeout: 600_000 }, () => {
  let f: AppFixture;
  let pgs: TestPostgres;
  let served: ServedNode | undefined;
  let routes: LiveRoute[];
  let streams: LiveRoute[];
  let embeddedStreams: Awaited<ReturnType<typeof replays>>;
  let values: ChainValues;
  let embedded: Map<string, Answer>;
  let indexed: number;

  before(async () => {
    f = await startAppFixture();
    const t = f.t;
    // More of a mix: transfers both ways, a mint by a granted account, failures of several kinds.
    await run(t, alice, [{ kind: 'MintAsset', asset: `${rose}#${alice.id}`, amount: numeric('10') }]);
    for (let i = 0; i < 3; i++) {
      await run(t, alice, [
        {
          kind: 'TransferAsset',
          source: `${rose}#${alice.id}`,
          destination: bob.id,
          amount: numeric('1.25'),
        },
        {
          kind: 'TransferAsset',
          source: `${rose}#${alice.id}`,
          destination: carol.id,
          amount: numeric('0.50'),
        },
      ]);
      await run(t, bob, [
        {
          kind: 'TransferAsset',
          source: `${rose}#${bob.id}`,
          destination: alice.id,
          amount: numeric('0.25'),
        },
      ]);
    }
    await run(t, bob, [{ kind: 'MintAsset', asset: `${rose}#${bob.id}`, amount: numeric('1') }]); // no permission
    await run(t, carol, [{ kind: 'RegisterDomain', id: 'wonderland', metadata: new Map() }]); // exists
    // Aliases (names in place of ids, resolved against the backend's own state) and a subscription.
    await run(t, t.admin, [
      { kind: 'RegisterAccountAlias', alias: 'alice@wonderland', account: alice.id },
      { kind: 'SetAssetAlias', alias: 'rose', definition: rose },
    ]);
    await run(t, bob, [
      {
        kind: 'RegisterSubscriptionPlan',
        id: 'rose-monthly',
        billing: {
          cadence: { kind: 'FixedPeriod', periodMs: 30 * 86_400_000 },
          billFor: { kind: 'Current' },
          retryBackoffMs: 3_600_000,
          maxFailures: 3,
          graceMs: 0,
        },
        pricing: { kind: 'Fixed', amount: numeric('1.00'), assetDefinition: rose },
        trialMs: 0,
      },
    ]);
    await run(t, alice, [{ kind: 'Subscribe', id: 'alice-rose', plan: 'rose-monthly' }]);
    await run(t, bob, [{ kind: 'ChargeSubscriptionNow', id: 'alice-rose' }]);
    pgs = await startPostgres();
    await pgs.createDatabase('explorer');
    indexed = t.node.ledger.height();
    await indexTo(pgs, t.url, t.dir, indexed);
    const app = t.served.app;
    routes = liveRoutes(app, await fetchOpenApi(t.url)).filter(
      (r) => FAMILIES.has(r.meta.family?.name ?? '') && r.stream === undefined,
    );
    streams = liveRoutes(app, await fetchOpenApi(t.url)).filter(
      (r) => FAMILIES.has(r.meta.family?.name ?? '') && r.stream === 'sse',
    );
    embeddedStreams = await replays(t.url, streamPaths(streams));
    values = await chainValues(t.url);
    embedded = await answers(
      t.url,
      routes.flatMap((r) => requestsOf(r, values)),
    );
    // The same node, the same directory, restarted with the postgres backend.
    await t.served.close();
    await t.restart({
      'explorer.backend': 'postgres',
      'explorer.pg': pgs.conninfo('explorer'),
      'explorer.pg_poll_ms': 50,
    });
    served = await serveNode(t.node, { dir: t.dir });
  });

  after(async () => {
    await served?.close();
    await f?.t.cleanup();
    await pgs?.stop();
  });

  it('covers every explorer and history route of the route table', () => {
    const names = new Set(routes.map((r) => r.meta.family?.name));
    assert.deepEqual([...names].sort(), ['explorer', 'history']);
    assert.ok(routes.length >= 20, `${routes.length} routes`);
    for (const r of routes) assert.ok(requestsOf(r, values).length > 0, r.url);
  });

  it('gives identical statuses and bodies, route by route, at the indexed height', async () => {
    const pgAnswers = await answers(
      served!.url,
      routes.flatMap((r) => requestsOf(r, values)),
    );
    assert.equal(pgAnswers.size, embedded.size, 'the same requests (cursors included) on both backends');
    let ok = 0;
    const statuses = new Map<number, number>();
    for (const [key, e] of embedded) {
      const p = pgAnswers.get(key);
      assert.ok(p !== undefined, key);
      assert.equal(p.status, e.status, `${key}: status`);
      assert.deepEqual(withoutWallClock(p.body), withoutWallClock(e.body), key);
      assert.equal(p.indexedHeight, String(indexed), `${key}: ${INDEXED_HEIGHT_HEADER}`);
      assert.equal(e.indexedHeight, null, `${key}: no ${INDEXED_HEIGHT_HEADER} on the embedded backend`);
      statuses.set(e.status, (statuses.get(e.status) ?? 0) + 1);
      ok++;
    }
    console.log(
      `# ${routes.length} routes, ${ok} requests identical on both backends; statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
    assert.ok((statuses.get(200) ?? 0) > ok / 2, 'most requests answer 200');
  });

  it('replays the same stream items from the same resumption points', async () => {
    assert.ok(streams.length >= 3, `${streams.length} streams`);
    const pgStreams = await replays(served!.url, streamPaths(streams));
    let items = 0;
    for (const [path, e] of embeddedStreams) {
      const p = pgStreams.get(path);
      assert.deepEqual(p, e, path);
      items += e.messages.length;
    }
    console.log(
      `# ${streams.length} streams, ${embeddedStreams.size} resumptions, ${items} replayed items identical`,
    );
    assert.ok(items > 0);
  });

  it('answers at the indexed height while the indexer lags, and follows it when it catches up', async () => {
    const t = f.t;
    const url = served!.url;
    await run(t, alice, [
      { kind: 'TransferAsset', source: `${rose}#${alice.id}`, destination: bob.id, amount: numeric('2') },
    ]);
    const tip = t.node.ledger.height();
    assert.ok(tip > indexed);
    const lagging = await ask(url, '/v1/explorer/health', { method: 'GET' });
    assert.equal(lagging.indexedHeight, String(indexed));
    assert.equal(lagging.body.height, indexed, 'the indexed height, not the node’s');
    const missing = await ask(url, `/v1/explorer/blocks/${tip}`, { method: 'GET' });
    assert.equal(missing.status, 404, 'a block not indexed yet is not invented');
    await indexTo(pgs, url, t.dir, tip);
    let caught = lagging;
    for (let i = 0; i < 400 && caught.indexedHeight !== String(tip); i++) {
      await new Promise((r) => setTimeout(r, 50));
      caught = await ask(url, '/v1/explorer/health', { method: 'GET' });
    }
    assert.equal(caught.indexedHeight, String(tip));
    assert.equal(caught.body.height, tip);
    const block = await ask(url, `/v1/explorer/blocks/${tip}`, { method: 'GET' });
    assert.equal(block.status, 200);
    assert.equal(block.body.transactions?.length ?? block.body.transaction_count, 1);
  });
});
