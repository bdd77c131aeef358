import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from 'typebox';
import { AnswerCache, answerCached } from './answer-cache.js';
import type { GatewayApp } from './context.js';
import { disabledOperatorAuth } from './operator-auth.js';
import { TELEMETRY_PROFILES, type TelemetryProfile, type Visibility } from './profiles.js';
import { defineRoute, type RouteDef, registerRoutes } from './route-table.js';
import { createGatewayServer } from './server.js';

const VISIBILITIES: Visibility[] = ['public', 'status', 'metrics', 'developer', 'operator'];

function routeFor(visibility: Visibility): RouteDef {
  return {
    method: 'GET',
    url: `/v1/${visibility}`,
    operationId: `get_${visibility}`,
    summary: visibility,
    tags: ['test'],
    visibility,
    schema: { response: { 200: Type.Object({ ok: Type.Boolean() }) } },
    handler: async () => ({ ok: true }),
  };
}

async function serverWith(profile: TelemetryProfile, defs: RouteDef[]): Promise<GatewayApp> {
  const app = await createGatewayServer({ logLevel: 'silent', limits: { ratePerSecond: 0 } });
  registerRoutes(app, defs, { profile, operatorAuth: disabledOperatorAuth() });
  await app.ready();
  return app;
}

// The profile table (docs/configuration.md "Telemetry profiles"); operator routes need operator auth (403 here,
// because this node has no operator keys).
const EXPECTED: Record<TelemetryProfile, Record<Visibility, number>> = {
  disabled: { public: 200, status: 503, metrics: 503, developer: 503, operator: 403 },
  operator: { public: 200, status: 200, metrics: 503, developer: 503, operator: 403 },
  extended: { public: 200, status: 200, metrics: 200, developer: 503, operator: 403 },
  developer: { public: 200, status: 200, metrics: 503, developer: 200, operator: 403 },
  full: { public: 200, status: 200, metrics: 200, developer: 200, operator: 403 },
};

describe('profile gating matrix', () => {
  for (const profile of TELEMETRY_PROFILES) {
    it(`profile ${profile}`, async () => {
      const app = await serverWith(profile, VISIBILITIES.map(routeFor));
      try {
        const doc = app.swagger() as {
          paths: Record<string, { get: { responses: Record<string, unknown> } }>;
        };
        for (const visibility of VISIBILITIES) {
          const r = await app.inject({ method: 'GET', url: `/v1/${visibility}` });
          const expected = EXPECTED[profile][visibility];
          assert.equal(r.statusCode, expected, `${profile}/${visibility}`);
          if (expected === 503) {
            assert.equal(r.json().code, 'telemetry_profile_restricted');
            assert.equal(r.json().details.profile, profile);
          }
          if (expected === 403) assert.equal(r.json().code, 'operator_access_disabled');
          // Registered either way, and the OpenAPI entry documents the 503 exactly when it can happen.
          const responses = doc.paths[`/v1/${visibility}`]!.get.responses;
          assert.equal('503' in responses, expected === 503, `${profile}/${visibility} documents 503`);
        }
      } finally {
        await app.close();
      }
    });
  }
});

describe('route hooks', () => {
  it('415 before reading a body of the wrong type; codec bodies arrive as Buffers', async () => {
    let seen: unknown;
    const app = await serverWith('full', [
      {
        method: 'POST',
        url: '/transaction',
        operationId: 'postTransaction',
        summary: 'submit',
        tags: ['test'],
        visibility: 'public',
        bodyFormats: ['codec'],
        schema: {},
        handler: async (req, reply) => {
          seen = req.body;
          return reply.code(202).send({ accepted: true });
        },
      },
    ]);
    try {
      const json = await app.inject({
        method: 'POST',
        url: '/transaction',
        payload: '{}',
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(json.statusCode, 415);
      assert.deepEqual(json.json().details, {
        content_type: 'application/json',
        accepted: ['application/x-codec'],
      });
      const ok = await app.inject({
        method: 'POST',
        url: '/transaction',
        payload: Buffer.from([1, 2, 3]),
        headers: { 'content-type': 'application/x-codec' },
      });
      assert.equal(ok.statusCode, 202);
      assert.ok(Buffer.isBuffer(seen));
      assert.deepEqual([...(seen as Buffer)], [1, 2, 3]);
    } finally {
      await app.close();
    }
  });

  it('defineRoute gives handlers typed input; duplicate operationIds are refused', async () => {
    const def = defineRoute({
      method: 'GET',
      url: '/v1/items/:id',
      operationId: 'getItem',
      summary: 'one item',
      tags: ['test'],
      visibility: 'public',
      schema: {
        params: Type.Object({ id: Type.Integer() }),
        querystring: Type.Object({ limit: Type.Integer() }),
      },
      handler: async (req) => ({ id: req.params.id + 1, limit: req.query.limit }),
    });
    const app = await serverWith('full', [def]);
    try {
      const r = await app.inject({ method: 'GET', url: '/v1/items/41?limit=5' });
      assert.deepEqual(r.json(), { id: 42, limit: 5 });
      const missing = await app.inject({ method: 'GET', url: '/v1/items/41' });
      assert.equal(missing.statusCode, 400);
      assert.equal(missing.json().details.location, 'querystring');
    } finally {
      await app.close();
    }
    const fresh = await createGatewayServer({ logLevel: 'silent' });
    const other = { ...def, url: '/v1/other/:id' };
    assert.throws(
      () => registerRoutes(fresh, [def, other], { profile: 'full', operatorAuth: disabledOperatorAuth() }),
      /duplicate operationId getItem/,
    );
    await fresh.close();
  });

  it('refuses a default format that the route does not offer', async () => {
    const app = await createGatewayServer({ logLevel: 'silent' });
    const bad = { ...routeFor('public'), formats: { default: 'codec', offers: ['json'] } } as RouteDef;
    assert.throws(
      () => registerRoutes(app, [bad], { profile: 'full', operatorAuth: disabledOperatorAuth() }),
      /default format/,
    );
    await app.close();
  });
});

describe('early answers from the answer cache (RouteDef.answers)', () => {
  function thingRoute(cache: AnswerCache, counts: { handled: number; rendered: number }): RouteDef {
    return defineRoute({
      method: 'GET',
      url: '/v1/things/:id',
      operationId: 'getThing',
      summary: 'A thing',
      tags: ['test'],
      visibility: 'public',
      schema: {
        params: Type.Object({ id: Type.String({ maxLength: 8 }) }),
        querystring: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 5 })) }),
      },
      answers: cache,
      handler: (req, reply) => {
        counts.handled++;
        return answerCached(cache, req, reply, () => {
          counts.rendered++;
          return {
            contentType: 'application/json; charset=utf-8',
            body: JSON.stringify({ id: req.params.id, é: counts.rendered }),
          };
        });
      },
    });
  }
  const headers = (r: { headers: Record<string, unknown> }) => {
    const { date: _, ...rest } = r.headers;
    return rest;
  };

  it('answers a URL answered since the last commit without its handler, the same bytes and headers', async () => {
    const state = { version: 1 };
    const cache = new AnswerCache(() => state.version, { entriesMax: 16, bytesMax: 1 << 20 });
    const counts = { handled: 0, rendered: 0 };
    const app = await serverWith('full', [thingRoute(cache, counts)]);
    const first = await app.inject({ url: '/v1/things/a?limit=2' });
    const second = await app.inject({ url: '/v1/things/a?limit=2' });
    assert.equal(first.statusCode, 200);
    assert.deepEqual(counts, { handled: 1, rendered: 1 });
    assert.equal(second.body, first.body);
    assert.deepEqual(headers(second), headers(first));
    assert.deepEqual({ hits: cache.hits, misses: cache.misses }, { hits: 1, misses: 1 });
    // Refusals are never kept, so never answered early; another URL is its own answer.
    assert.equal((await app.inject({ url: '/v1/things/a?limit=9' })).statusCode, 400);
    assert.equal((await app.inject({ url: '/v1/things/toolongid?limit=2' })).statusCode, 400);
    assert.equal((await app.inject({ url: '/v1/things/b?limit=2' })).json<{ id: string }>().id, 'b');
    assert.deepEqual(counts, { handled: 2, rendered: 2 });
    // A commit: the next request of the same URL is handled and rendered afresh.
    state.version++;
    const third = await app.inject({ url: '/v1/things/a?limit=2' });
    assert.deepEqual(counts, { handled: 3, rendered: 3 });
    assert.notEqual(third.body, first.body);
    await app.close();
  });

  it('is refused on a route that is not a GET or that authenticates its requests', async () => {
    const cache = new AnswerCache(() => 1, { entriesMax: 16, bytesMax: 1 << 20 });
    const app = await createGatewayServer({ logLevel: 'silent' });
    const ctx = { profile: 'full' as const, operatorAuth: disabledOperatorAuth() };
    const route = thingRoute(cache, { handled: 0, rendered: 0 });
    assert.throws(() => registerRoutes(app, [{ ...route, method: 'POST' }], ctx), /answers early only/);
    assert.throws(
      () => registerRoutes(app, [{ ...route, operationId: 'op', visibility: 'operator' }], ctx),
      /answers early only/,
    );
    await app.close();
  });
});
