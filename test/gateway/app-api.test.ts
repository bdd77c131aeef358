// `app_api.enabled` through real sockets (with it off every application path
// answers 404 and is absent from the OpenAPI document; the common, consensus and runtime routes answer as
// before). The application paths are not written here: they are the operations the enabled node's own
// document marks `x-ledger-app-api` (every route of a family with `app: true`), so a family added later is
// checked the day it is registered, and one that ignored the switch would still be served and fail.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fetchOpenApi, type OpenApiDoc } from '../helpers/route-catalog.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';

interface Operation {
  method: string;
  path: string;
  app: boolean;
  family: string | undefined;
}

function operations(doc: OpenApiDoc): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const ext = op as { 'x-ledger-app-api'?: boolean; 'x-ledger-family'?: string };
      out.push({
        method: method.toUpperCase(),
        path,
        app: ext['x-ledger-app-api'] === true,
        family: ext['x-ledger-family'],
      });
    }
  }
  return out;
}

const key = (o: Operation) => `${o.method} ${o.path}`;
/** A concrete URL for a documented path (any value fills a parameter: the router never matches it). */
const concrete = (path: string) => path.replace(/\{\w+\}/g, 'x');

/** Path prefixes of the application route families (docs/app-api.md) that this node serves. */
const APP_PREFIXES = [
  '/v1/accounts',
  '/v1/domains',
  '/v1/assets',
  '/v1/nfts',
  '/v1/explorer',
  '/v1/ledger',
  '/v1/iso20022',
];

async function call(base: string, o: { method: string; path: string }) {
  const res = await fetch(`${base}${concrete(o.path)}`, {
    method: o.method,
    headers: {
      accept: 'application/json',
      ...(o.method === 'GET' ? {} : { 'content-type': 'application/json' }),
    },
    ...(o.method === 'GET' ? {} : { body: '{}' }),
    signal: AbortSignal.timeout(5_000),
  });
  const sse = (res.headers.get('content-type') ?? '').startsWith('text/event-stream');
  if (!sse) return { status: res.status, body: await res.text() };
  await res.body?.cancel();
  return { status: res.status, body: undefined };
}

describe('app_api.enabled', () => {
  let on: ServedTestNode;
  let off: ServedTestNode;
  let onOps: Operation[];
  let offOps: Operation[];
  before(async () => {
    // The bridge on as well, so that every application family of this node is in the enabled document.
    const common = { 'telemetry.profile': 'full', 'gateway.rate_burst': 100_000 };
    [on, off] = await Promise.all([
      startServedNode({ ...common, 'iso20022.enabled': true }),
      startServedNode({ ...common, 'app_api.enabled': false }),
    ]);
    const [a, b] = await Promise.all([fetchOpenApi(on.url), fetchOpenApi(off.url)]);
    onOps = operations(a);
    offOps = operations(b);
  });
  after(async () => Promise.all([on?.stopAll(), off?.stopAll()]));

  it('on: every application family is documented, and marked as such', () => {
    const families = new Set(onOps.filter((o) => o.app).map((o) => o.family));
    for (const f of ['app-reads', 'explorer', 'conference', 'iso20022'])
      assert.ok(families.has(f), `family ${f}`);
    // A route under an application prefix registered outside an app family would escape the switch.
    const unmarked = onOps.filter((o) => !o.app && APP_PREFIXES.some((p) => o.path.startsWith(p)));
    assert.deepEqual(unmarked.map(key), []);
    assert.ok(!onOps.some((o) => o.app && o.family === undefined));
  });

  it('on: the application routes are served (no 404)', async () => {
    const reads = onOps.filter((o) => o.app && o.method === 'GET' && !o.path.includes('{'));
    assert.ok(reads.length >= 10, `${reads.length} parameterless application reads`);
    for (const o of reads) {
      const r = await call(on.url, o);
      assert.notEqual(r.status, 404, `${key(o)}: ${r.body}`);
    }
    assert.equal((await call(on.url, { method: 'GET', path: '/v1/domains' })).status, 200);
  });

  it('off: no application path is documented, and each answers the router 404', async () => {
    const app = onOps.filter((o) => o.app);
    const offKeys = new Set(offOps.map(key));
    assert.deepEqual(
      app.filter((o) => offKeys.has(key(o))).map(key),
      [],
      'application operations documented with the switch off',
    );
    assert.ok(!offOps.some((o) => o.app), 'no operation of the disabled node is marked x-ledger-app-api');
    for (const o of app) {
      const r = await call(off.url, o);
      assert.equal(r.status, 404, `${key(o)} answered ${r.status}`);
      assert.equal(JSON.parse(r.body ?? '{}').code, 'not_found', key(o));
    }
  });

  it('off: the common, consensus, runtime and telemetry routes are exactly those of the enabled node', async () => {
    const core = onOps
      .filter((o) => !o.app)
      .map(key)
      .sort();
    assert.deepEqual(offOps.map(key).sort(), core);
    for (const p of ['/status', '/v1/consensus', '/v1/runtime', '/transaction', '/query', '/metrics']) {
      assert.ok(
        core.some((k) => k.split(' ')[1]!.startsWith(p)),
        `${p} is among the routes that stay`,
      );
    }
    for (const path of [
      '/health',
      '/v1/node/capabilities',
      '/v1/consensus/status',
      '/v1/consensus/validator-sets',
      '/v1/runtime/abi/active',
      '/v1/telemetry/peers-info',
    ]) {
      const [a, b] = await Promise.all([
        call(on.url, { method: 'GET', path }),
        call(off.url, { method: 'GET', path }),
      ]);
      assert.equal(b.status, 200, `${path} with the switch off: ${b.body}`);
      assert.equal(a.status, b.status, path);
      assert.deepEqual(
        Object.keys(JSON.parse(b.body!)).sort(),
        Object.keys(JSON.parse(a.body!)).sort(),
        path,
      );
    }
  });
});
