import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { Type } from 'typebox';
import type { GatewayApp } from './context.js';
import { createErrorRegistry, gatewayError } from './errors.js';
import { disabledOperatorAuth } from './operator-auth.js';
import { type RouteDef, registerRoutes, sendNegotiated } from './route-table.js';
import { createGatewayServer, type GatewayServerOptions } from './server.js';

const ctx = { profile: 'full', operatorAuth: disabledOperatorAuth() } as const;

const ROUTES: RouteDef[] = [
  {
    method: 'POST',
    url: '/v1/things/:id',
    operationId: 'postThing',
    summary: 'Create a thing',
    tags: ['test'],
    visibility: 'public',
    bodyBytesMax: 100,
    schema: {
      params: Type.Object({ id: Type.String({ maxLength: 8 }) }),
      body: Type.Object({ amount: Type.Integer() }),
      response: { 200: Type.Object({ id: Type.String(), amount: Type.Integer() }) },
    },
    handler: async (req) => {
      const body = req.body as { amount: number };
      return { id: (req.params as { id: string }).id, amount: body.amount };
    },
  },
  {
    method: 'GET',
    url: '/v1/both',
    operationId: 'getBoth',
    summary: 'JSON or codec',
    tags: ['test'],
    visibility: 'public',
    formats: { default: 'codec', offers: ['json', 'codec'] },
    schema: { response: { 200: Type.Object({ n: Type.Integer() }) } },
    handler: (req, reply) => sendNegotiated(req, reply, { n: 7 }, () => Uint8Array.of(7)),
  },
  {
    method: 'GET',
    url: '/v1/bug',
    operationId: 'getBug',
    summary: 'Throws a programmer error',
    tags: ['test'],
    visibility: 'public',
    schema: {},
    handler: () => {
      throw new TypeError('oops: secret internals');
    },
  },
  {
    method: 'GET',
    url: '/v1/queue',
    operationId: 'getQueue',
    summary: 'Throws a composition-time code',
    tags: ['test'],
    visibility: 'public',
    schema: {},
    handler: (req) => {
      throw req.server.gateway.errors.create('queue_full', { depth: 3, retry_after_s: 2 });
    },
  },
];

async function server(opts: GatewayServerOptions = {}): Promise<GatewayApp> {
  const app = await createGatewayServer({ logLevel: 'silent', ...opts });
  registerRoutes(app, ROUTES, ctx);
  await app.ready();
  return app;
}

describe('error mapping (inject)', () => {
  let app: GatewayApp;
  before(async () => {
    app = await server({
      errors: createErrorRegistry({ queue_full: { status: 429, message: 'The queue is full.' } }),
      encodeErrorCodec: (body) => new TextEncoder().encode(`codec:${body.code}`),
    });
  });
  after(() => app.close());

  const post = (payload: string | Readable, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: '/v1/things/a1',
      payload,
      headers: { 'content-type': 'application/json', ...headers },
    });

  it('answers a valid request, with API-version headers', async () => {
    const r = await post('{"amount":5}');
    assert.equal(r.statusCode, 200);
    assert.deepEqual(r.json(), { id: 'a1', amount: 5 });
    assert.equal(r.headers['x-ledger-api-version'], '1');
    assert.equal(r.headers['x-ledger-api-supported'], '1');
  });

  const cases: [string, () => ReturnType<typeof post>, number, string][] = [
    ['malformed JSON', () => post('{"amount":'), 400, 'invalid_json'],
    ['empty JSON body', () => post(''), 400, 'invalid_json'],
    ['prototype poisoning', () => post('{"amount":1,"__proto__":{"x":1}}'), 400, 'invalid_json'],
    ['wrong type per schema', () => post('{"amount":"five"}'), 400, 'bad_request'],
    [
      '415 unsupported media type',
      () => post('amount=5', { 'content-type': 'text/plain' }),
      415,
      'unsupported_media_type',
    ],
    [
      '413 with Content-Length',
      () => post(JSON.stringify({ amount: 1, pad: 'x'.repeat(200) })),
      413,
      'body_too_large',
    ],
    [
      '413 without Content-Length (stream)',
      () =>
        post(Readable.from([Buffer.from('{"amount":1,"pad":"'), Buffer.alloc(300, 120), Buffer.from('"}')])),
      413,
      'body_too_large',
    ],
    [
      'unknown API version',
      () => post('{"amount":5}', { 'x-ledger-api-version': '9' }),
      400,
      'unsupported_api_version',
    ],
    [
      'unparseable API version',
      () => post('{"amount":5}', { 'x-ledger-api-version': 'v1.x' }),
      400,
      'invalid_api_version',
    ],
  ];
  for (const [name, send, status, code] of cases) {
    it(`${name} -> ${status} ${code}, with version headers`, async () => {
      const r = await send();
      assert.equal(r.statusCode, status);
      assert.equal(r.json().code, code);
      assert.equal(typeof r.json().message, 'string');
      assert.equal(typeof r.json().details, 'object');
      assert.equal(r.headers['x-ledger-api-version'], '1');
    });
  }

  it('schema failures name the failing field', async () => {
    const r = await post('{"amount":"five"}');
    assert.deepEqual(r.json().details, {
      location: 'body',
      issues: [{ path: '/amount', message: 'must be integer' }],
    });
  });

  it('404 for unmatched routes, with version headers', async () => {
    const r = await app.inject({ method: 'GET', url: '/no/such/route?x=1' });
    assert.equal(r.statusCode, 404);
    assert.deepEqual(r.json(), {
      code: 'not_found',
      message: 'No such route or resource.',
      details: { method: 'GET', path: '/no/such/route' },
    });
    assert.equal(r.headers['x-ledger-api-supported'], '1');
  });

  it('405 with Allow for a known path with another method', async () => {
    const r = await app.inject({ method: 'DELETE', url: '/v1/things/a1' });
    assert.equal(r.statusCode, 405);
    assert.equal(r.json().code, 'method_not_allowed');
    assert.equal(r.headers.allow, 'POST');
  });

  it('router-level failures (bad percent-encoding, overlong parameter) are mapped too', async () => {
    const bad = await app.inject({ method: 'POST', url: '/v1/things/%E0%A4%A', payload: '{}' });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().code, 'bad_request');
    assert.equal(bad.headers['x-ledger-api-version'], '1');
    const long = await app.inject({
      method: 'POST',
      url: `/v1/things/${'a'.repeat(2_000)}`,
      payload: '{}',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(long.statusCode, 400);
    assert.equal(long.json().code, 'bad_request');
    assert.equal(long.json().details.location, 'request', 'refused by the router, not by the params schema');
  });

  it('a bug answers 500 internal_error without leaking the message', async () => {
    const r = await app.inject({ method: 'GET', url: '/v1/bug' });
    assert.equal(r.statusCode, 500);
    assert.equal(r.json().code, 'internal_error');
    assert.ok(!r.body.includes('secret'));
  });

  it('a code registered at composition time keeps its status and sets Retry-After', async () => {
    const r = await app.inject({ method: 'GET', url: '/v1/queue' });
    assert.equal(r.statusCode, 429);
    assert.equal(r.json().code, 'queue_full');
    assert.equal(r.headers['retry-after'], '2');
  });

  it('errors follow negotiation: codec when preferred, JSON otherwise', async () => {
    const codec = await app.inject({
      method: 'GET',
      url: '/nope',
      headers: { accept: 'application/x-codec' },
    });
    assert.equal(codec.statusCode, 404);
    assert.equal(codec.headers['content-type'], 'application/x-codec');
    assert.equal(codec.body, 'codec:not_found');
    const any = await app.inject({ method: 'GET', url: '/nope', headers: { accept: '*/*' } });
    assert.equal(any.json().code, 'not_found');
  });

  it('answers negotiate: codec by default on a codec-default route, JSON on request, 406 otherwise', async () => {
    const d = await app.inject({ method: 'GET', url: '/v1/both' });
    assert.equal(d.headers['content-type'], 'application/x-codec');
    assert.deepEqual([...d.rawPayload], [7]);
    const j = await app.inject({ method: 'GET', url: '/v1/both', headers: { accept: 'application/json' } });
    assert.deepEqual(j.json(), { n: 7 });
    const bad = await app.inject({ method: 'GET', url: '/v1/both', headers: { accept: 'text/html' } });
    assert.equal(bad.statusCode, 406);
    assert.equal(bad.json().code, 'not_acceptable');
    const badQ = await app.inject({
      method: 'GET',
      url: '/v1/both',
      headers: { accept: 'application/json;q=2' },
    });
    assert.equal(badQ.statusCode, 406);
  });
});

describe('rate limit (inject, fake clock)', () => {
  it('429 with Retry-After once the bucket is empty, then recovers', async () => {
    let now = 1_000_000;
    const app = await server({ limits: { ratePerSecond: 1, rateBurst: 2 }, now: () => now });
    try {
      const get = () => app.inject({ method: 'GET', url: '/openapi.json' });
      assert.equal((await get()).statusCode, 200);
      assert.equal((await get()).statusCode, 200);
      const limited = await get();
      assert.equal(limited.statusCode, 429);
      assert.equal(limited.json().code, 'rate_limited');
      assert.equal(limited.headers['retry-after'], '1');
      assert.equal(limited.headers['x-ledger-api-version'], '1');
      now += 500;
      assert.equal((await get()).statusCode, 429);
      now += 600;
      assert.equal((await get()).statusCode, 200);
    } finally {
      await app.close();
    }
  });
});

describe('CORS', () => {
  it('allows listed origins only; no CORS headers at all without an allow-list', async () => {
    const app = await server({ corsOrigins: ['https://app.example'] });
    const plain = await server();
    try {
      const ok = await app.inject({
        method: 'GET',
        url: '/openapi.json',
        headers: { origin: 'https://app.example' },
      });
      assert.equal(ok.headers['access-control-allow-origin'], 'https://app.example');
      assert.match(String(ok.headers['access-control-expose-headers']), /x-ledger-api-version/);
      const evil = await app.inject({
        method: 'GET',
        url: '/openapi.json',
        headers: { origin: 'https://evil.example' },
      });
      assert.equal(evil.statusCode, 200);
      assert.equal(evil.headers['access-control-allow-origin'], undefined);
      const preflight = await app.inject({
        method: 'OPTIONS',
        url: '/v1/things/a1',
        headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
      });
      assert.equal(preflight.statusCode, 204);
      assert.match(String(preflight.headers['access-control-allow-methods']), /POST/);
      const none = await plain.inject({
        method: 'GET',
        url: '/openapi.json',
        headers: { origin: 'https://app.example' },
      });
      assert.equal(none.headers['access-control-allow-origin'], undefined);
      // A CORS refusal from the rate limiter or 404 still carries the origin header, so browsers can read it.
      const missing = await app.inject({
        method: 'GET',
        url: '/nope',
        headers: { origin: 'https://app.example' },
      });
      assert.equal(missing.headers['access-control-allow-origin'], 'https://app.example');
    } finally {
      await app.close();
      await plain.close();
    }
  });

  it('GatewayError codes thrown from hooks keep their status', async () => {
    const app = await createGatewayServer({ logLevel: 'silent' });
    app.addHook('onRequest', async () => {
      throw gatewayError('invalid_filter', { at: 3 });
    });
    await app.ready();
    const r = await app.inject({ method: 'GET', url: '/openapi' });
    assert.equal(r.statusCode, 400);
    assert.deepEqual(r.json().details, { at: 3 });
    await app.close();
  });
});
