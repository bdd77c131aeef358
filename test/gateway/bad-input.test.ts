// The bad-input test: it sends malformed, oversized, wrong-type and unknown-version requests to every
// route and gets 4xx with a documented code, never a 5xx, never a crash (docs/design/testing.md "Tests we
// keep", route fuzzing). Every route of the LIVE table gets structured hostile probes and seeded random mutations of a
// well-formed request (test/helpers/bad-requests.ts). Every answer must be a 2xx or a 4xx; a 4xx must
// carry `{code, message, details}` whose code is in the registry and in docs/errors.md with that status.
// Meanwhile /health is polled on its own connection and must always answer (its worst latency is printed;
// test/reliability/timing-bounds.test.ts asserts it). Replay a run with BAD_INPUT_SEED=<printed seed>.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Pool } from 'undici';
import { Ed25519KeyPair } from '../../src/crypto/signer.js';
import { signOperatorRequest } from '../../src/gateway/operator-message.js';
import { compilePendingValidators } from '../../src/gateway/schema-compilers.js';
import { numeric } from '../../src/model/numeric.js';
import { signRequest } from '../../src/sdk/signed-request.js';
import {
  type Answer,
  errorBodyOf,
  hostileQueryRequests,
  mutate,
  type Probe,
  problemOf,
  Rng,
  rawExchange,
  seededRandom,
  sendOversized,
  structuredProbes,
} from '../helpers/bad-requests.js';
import { startHealthMonitor } from '../helpers/health-monitor.js';
import { run } from '../helpers/node.js';
import {
  discoverSamples,
  documentedErrorCodes,
  exampleBody,
  exampleQuery,
  exampleQueryBody,
  fetchOpenApi,
  type LiveRoute,
  liveRoutes,
  type Samples,
  validPath,
} from '../helpers/route-catalog.js';
import { operatorAudience, type ServedTestNode, startServedNode } from '../helpers/served.js';
import { timingBound } from '../helpers/timing-bound.js';
import { newAccount } from '../helpers/tx.js';

/** Routes that take signed app requests (gateway/signed-request.ts). */
/** Signed app routes (docs/security.md "Signed app requests") are named by their own metadata (RouteMeta.signed), so new ones are covered. */
const isSignedApp = (r: LiveRoute) => r.meta.signed && r.meta.visibility !== 'operator';

const SEED = Number(process.env.BAD_INPUT_SEED ?? 0x7a0a_2026);
/**
 * Seeded random mutations per route, on top of every structured probe. The long fuzz
 * (test/reliability/fuzz-routes.test.ts) mutates for minutes; this one only has to reach every route's
 * decoders with a spread of mutations: 10 of 1–3 edits each, about 20 edits of 8 kinds per route
 * (BAD_INPUT_MUTATIONS=<n> for more).
 */
const MUTATIONS_PER_ROUTE = Number(process.env.BAD_INPUT_MUTATIONS ?? 10);
const CONCURRENCY = 8;
/** /health must answer within this while the fuzzing runs (it shares the event loop with the node). */
const HEALTH_LATENCY_MAX_MS = 1_000;
const ANSWER_BYTES_MAX = 4 * 1024 * 1024;
const OPERATOR_SEED = new Uint8Array(32).fill(0x24);
const OPERATOR_KEY = Ed25519KeyPair.fromSeed(OPERATOR_SEED).publicKeyText();

/** Registers a small world so that every id-taking route has something real to name. */
async function seedWorld(t: ServedTestNode): Promise<void> {
  const alice = newAccount('wonderland', 7);
  const meta = new Map<string, never>();
  const r = await run(t, t.admin, [
    { kind: 'RegisterDomain', id: 'wonderland', metadata: meta },
    { kind: 'RegisterAccount', id: alice.id, metadata: meta },
    {
      kind: 'RegisterAssetDefinition',
      id: 'rose#wonderland',
      scale: 2,
      mintable: { kind: 'Infinitely' },
      metadata: meta,
    },
    { kind: 'MintAsset', asset: `rose#wonderland#${alice.id}`, amount: numeric('10.50') },
    { kind: 'RegisterNft', id: 'deed$wonderland', content: meta },
  ]);
  assert.equal(r.status.kind, 'Committed', JSON.stringify(r.status));
}

// One served node for the file: the fuzz below, then the node-level limits against the same node (its
// body routes include the bridge's; its rate limits are out of the way of both).
let t: ServedTestNode;
before(async () => {
  t = await startServedNode({
    'telemetry.profile': 'full',
    'operator.public_keys': [OPERATOR_KEY],
    'gateway.rate_per_ip_per_s': 1_000_000,
    'gateway.rate_burst': 1_000_000,
    // The bridge's routes are part of the node's surface too: fuzz them with the rest.
    'iso20022.enabled': true,
  });
});
after(async () => {
  await t?.stopAll();
});

describe('bad input on every route (real socket)', () => {
  let pool: Pool;
  let routes: LiveRoute[];
  let samples: Samples;
  let nonce = 0;
  const problems: string[] = [];
  let tried = 0;
  const answered = new Map<string, number>();

  before(async () => {
    await seedWorld(t);
    routes = liveRoutes(t.served.app, await fetchOpenApi(t.url));
    samples = await discoverSamples(t.url);
    pool = new Pool(t.url, { connections: CONCURRENCY, pipelining: 1 });
  });
  after(async () => {
    await pool?.close();
  });

  function baseline(route: LiveRoute): Probe {
    const body = exampleBody(route, { chainId: t.chainId, admin: t.admin }, nonce++);
    const query = route.method === 'GET' ? exampleQuery(route, samples) : '';
    return {
      label: 'baseline',
      method: route.method,
      path: validPath(route, samples) + query,
      headers: body === undefined ? {} : { 'content-type': body.contentType },
      ...(body === undefined ? {} : { body: body.body }),
      expect: 'any',
      sign: true,
    };
  }

  function signedQueryProbes(base: Probe): Probe[] {
    const ctx = { chainId: t.chainId, admin: t.admin };
    return hostileQueryRequests().map((request, i) => ({
      ...base,
      label: `signed query ${i} ${request.kind}`,
      headers: { ...base.headers, accept: i % 2 === 0 ? 'application/json' : 'application/x-codec' },
      body: exampleQueryBody(ctx, request),
      expect: 'any' as const,
    }));
  }

  async function send(route: LiveRoute, p: Probe): Promise<Answer> {
    const headers = { ...p.headers };
    if (route.meta.visibility === 'operator' && p.sign === true) {
      Object.assign(
        headers,
        signOperatorRequest({
          method: p.method,
          url: p.path,
          body: p.body ?? new Uint8Array(),
          seed: OPERATOR_SEED,
          ...operatorAudience(t.node),
        }),
      );
    } else if (p.sign === true && isSignedApp(route)) {
      // Signed app requests (docs/iso20022.md "Participants", docs/conference.md "Signalling"): the admin
      // verifies but is no participant or host (403 at the handler), so every other check of the route
      // is still reached.
      const body = p.body ?? new Uint8Array();
      Object.assign(
        headers,
        signRequest({ method: p.method, url: p.path, body, account: t.admin.id, signer: t.admin.key }),
      );
    }
    const res = await pool.request({
      method: p.method as 'GET',
      path: p.path,
      headers,
      ...(p.body === undefined ? {} : { body: Buffer.from(p.body) }),
      headersTimeout: 10_000,
      bodyTimeout: 10_000,
    });
    const contentType = String(res.headers['content-type'] ?? '');
    if (contentType.startsWith('text/event-stream')) {
      res.body.destroy();
      return { status: res.statusCode, contentType, body: Buffer.alloc(0) };
    }
    const body = Buffer.from(await res.body.arrayBuffer());
    assert.ok(body.length <= ANSWER_BYTES_MAX, `${p.label}: answer of ${body.length} bytes`);
    return { status: res.statusCode, contentType, body };
  }

  async function probeAll(route: LiveRoute, probes: Probe[]): Promise<void> {
    const registry = t.served.app.gateway.errors.specs;
    const documented = documentedErrorCodes();
    let next = 0;
    const lane = async () => {
      while (next < probes.length) {
        const p = probes[next++]!;
        tried++;
        let problem: string | undefined;
        try {
          const a = await send(route, p);
          const kind =
            a.status < 400 ? '2xx' : a.contentType.startsWith('application/x-codec') ? 'codec 4xx' : '4xx';
          answered.set(kind, (answered.get(kind) ?? 0) + 1);
          problem = problemOf(a, p.expect, registry, documented);
        } catch (e) {
          problem = `transport: ${(e as Error).message}`;
        }
        if (problem !== undefined)
          problems.push(
            `${route.method} ${route.url} ${p.label} (${p.method} ${p.path.slice(0, 80)}): ${problem}`,
          );
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  }

  it('every route answers hostile and mutated requests with documented 4xx (or valid 2xx), never 5xx', async (ctx) => {
    ctx.diagnostic(`seed ${SEED} (replay with BAD_INPUT_SEED=${SEED})`);
    const monitor = startHealthMonitor(t.url);
    const rng = new Rng(seededRandom(SEED));
    const started = Date.now();
    let health = { latencies: [] as number[], failures: [] as string[] };
    try {
      for (const route of routes) {
        const base = baseline(route);
        const probes = [base, ...structuredProbes(route, base, samples)];
        if (route.url === '/query') probes.push(...signedQueryProbes(base));
        for (let i = 0; i < MUTATIONS_PER_ROUTE; i++) probes.push(mutate(baseline(route), rng, i));
        await probeAll(route, probes);
      }
    } finally {
      health = await monitor.stop();
    }
    const { latencies, failures: healthFailures } = health;
    latencies.sort((a, b) => a - b);
    const p50 = latencies[latencies.length >> 1] ?? 0;
    const max = latencies.at(-1) ?? 0;
    ctx.diagnostic(
      `${tried} requests to ${routes.length} routes in ${Date.now() - started} ms; /health polled ${latencies.length}x, p50 ${p50.toFixed(1)} ms, max ${max.toFixed(1)} ms`,
    );
    ctx.diagnostic(`answers: ${JSON.stringify(Object.fromEntries(answered))}`);
    console.log(`bad-input: ${tried} requests tried, seed ${SEED}`);
    assert.ok((answered.get('codec 4xx') ?? 0) > 0, 'some errors were negotiated into the codec and decoded');
    assert.deepEqual(problems.slice(0, 30), [], `${problems.length} problems`);
    assert.deepEqual(healthFailures, []);
    timingBound({ what: '/health at worst under bad input', value: max, max: HEALTH_LATENCY_MAX_MS });
    const after = await fetch(`${t.url}/health`);
    assert.equal(after.status, 200, 'the node still answers /health');
  });

  it('no request was answered 5xx or logged as internal_error (gateway metrics agree)', async () => {
    const metrics = t.served.app.gateway.metrics;
    const requests = await metrics.requests.get();
    const fiveXx = requests.values.filter((v) => String(v.labels.status).startsWith('5'));
    assert.deepEqual(fiveXx, []);
    const rejected = await metrics.rejected.get();
    assert.ok(!rejected.values.some((v) => v.labels.reason === 'internal_error' && v.value > 0));
  });

  it('every request schema of every route compiles (validators compile at a route’s first call)', () => {
    // The probes above reached each route's validators; any left (a part no probe sent) compile here.
    assert.doesNotThrow(() => compilePendingValidators());
    assert.equal(compilePendingValidators(), 0);
  });
});

describe('limits at node level: oversized bodies and header floods', () => {
  let routes: LiveRoute[];
  before(async () => {
    routes = liveRoutes(t.served.app, await fetchOpenApi(t.url)).filter((r) => r.meta.bodyFormats.length > 0);
  });

  /** Above every body limit of the node (json_body_bytes_max defaults to 1 MiB). */
  const OVERSIZE_BYTES = 2 * 1024 * 1024 + 1;

  for (const chunked of [false, true]) {
    it(`every body route answers 413 body_too_large ${chunked ? 'to a chunked body' : 'by Content-Length'}`, async () => {
      assert.ok(routes.length >= 3, `${routes.length} body routes`);
      const body = new Uint8Array(OVERSIZE_BYTES).fill(0x61);
      for (const r of routes) {
        const path = r.url.replace(/:(\w+)/g, 'ab'.repeat(32));
        const media =
          r.meta.bodyFormats[0] === 'codec' ? 'application/x-codec' : `application/${r.meta.bodyFormats[0]}`;
        const headers: Record<string, string> = { 'content-type': media };
        if (isSignedApp(r))
          Object.assign(
            headers,
            signRequest({ method: 'POST', url: path, body, account: t.admin.id, signer: t.admin.key }),
          );
        if (r.meta.visibility === 'operator')
          Object.assign(
            headers,
            signOperatorRequest({
              method: 'POST',
              url: path,
              body,
              seed: OPERATOR_SEED,
              ...operatorAudience(t.node),
            }),
          );
        const a = await sendOversized(t.url, path, headers, body, chunked);
        assert.equal(a.status, 413, `${r.url}: ${a.text.slice(0, 200)}`);
        assert.equal(JSON.parse(a.text).code, 'body_too_large', r.url);
      }
    });
  }

  it('a header flood answers 431 headers_too_large (one huge header, or many small ones)', async () => {
    const port = Number(new URL(t.url).port);
    const many = Array.from({ length: 900 }, (_, i) => `X-H${i}: ${'v'.repeat(20)}\r\n`).join('');
    for (const extra of [`X-Flood: ${'a'.repeat(20_000)}\r\n`, many]) {
      const data = await rawExchange(port, `GET /health HTTP/1.1\r\nHost: localhost\r\n${extra}\r\n`);
      assert.match(data, /^HTTP\/1\.1 431 /);
      const json = JSON.parse(data.slice(data.indexOf('\r\n\r\n') + 4));
      assert.equal(json.code, 'headers_too_large');
    }
    assert.equal((await fetch(`${t.url}/health`)).status, 200);
  });

  it('regression: error details echoing a 70 KB filter key stay within the ErrorBody limits', async () => {
    const key = 'k'.repeat(70_000);
    for (const accept of ['application/json', 'application/x-codec']) {
      const res = await fetch(`${t.url}/v1/domains/query`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept },
        body: JSON.stringify({ filter: { [key]: 1 } }),
      });
      const a = {
        status: res.status,
        contentType: res.headers.get('content-type') ?? '',
        body: Buffer.from(await res.arrayBuffer()),
      };
      assert.equal(a.status, 400);
      assert.ok(a.body.length < 20_000, `${accept}: ${a.body.length} bytes`);
      const body = errorBodyOf(a) as { code: string; details: { truncated?: boolean } } | undefined;
      assert.equal(body?.code, 'invalid_filter', accept);
      assert.equal(body?.details.truncated, true);
    }
  });

  it('regression: a query engine message echoing a 16 KB filter stays decodable in the codec', async () => {
    const filter = { ['q'.repeat(15_000)]: 1 };
    const body = exampleQueryBody(
      { chainId: t.chainId, admin: t.admin },
      {
        kind: 'Start',
        query: { kind: 'FindDomains' },
        params: { filter, offset: 0 },
      },
    );
    const res = await fetch(`${t.url}/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-codec', accept: 'application/x-codec' },
      body,
    });
    const a = {
      status: res.status,
      contentType: res.headers.get('content-type') ?? '',
      body: Buffer.from(await res.arrayBuffer()),
    };
    assert.equal(a.status, 400);
    const err = errorBodyOf(a) as { code: string; message: string } | undefined;
    assert.ok(err !== undefined, 'the codec error body decodes');
    assert.equal(err.code, 'invalid_filter');
    assert.ok(Buffer.byteLength(err.message) <= 1024);
  });
});
