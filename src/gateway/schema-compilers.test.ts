import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from 'typebox';
import type { GatewayApp } from './context.js';
import { disabledOperatorAuth } from './operator-auth.js';
import { type RouteDef, registerRoutes } from './route-table.js';
import { compilePendingValidators, validatorsCompiled } from './schema-compilers.js';
import { createGatewayServer } from './server.js';

const ctx = { profile: 'full', operatorAuth: disabledOperatorAuth() } as const;

/** A route whose schemas are new objects at every call, as a family's list routes build them. */
function echoRoute(seen: unknown[], idMax = 8): RouteDef {
  return {
    method: 'POST',
    url: '/v1/echo/:id',
    operationId: 'postEcho',
    summary: 'Echo',
    tags: ['test'],
    visibility: 'public',
    schema: {
      params: Type.Object({ id: Type.String({ maxLength: idMax }) }),
      body: Type.Object({ amount: Type.Integer({ minimum: 0, maximum: 1_000 + idMax }) }),
    },
    handler: async (req) => {
      seen.push(req.getValidationFunction('body'), req.getValidationFunction('params'));
      return { ok: true };
    },
  };
}

async function serverWith(route: RouteDef): Promise<GatewayApp> {
  const app = await createGatewayServer({ logLevel: 'silent' });
  registerRoutes(app, [route], ctx);
  await app.ready();
  return app;
}

describe('request validators shared by the gateways of a process', () => {
  it('a second server reuses the validators compiled for equal schemas, and they still validate', async () => {
    const seenA: unknown[] = [];
    const seenB: unknown[] = [];
    const a = await serverWith(echoRoute(seenA));
    const b = await serverWith(echoRoute(seenB));
    try {
      for (const app of [a, b]) {
        const ok = await app.inject({ method: 'POST', url: '/v1/echo/x', payload: { amount: 3 } });
        assert.equal(ok.statusCode, 200, ok.body);
        const bad = await app.inject({ method: 'POST', url: '/v1/echo/x', payload: { amount: -1 } });
        assert.equal(bad.statusCode, 400, bad.body);
        const long = await app.inject({ method: 'POST', url: '/v1/echo/123456789', payload: { amount: 1 } });
        assert.equal(long.statusCode, 400, long.body);
      }
      assert.equal(seenA.length, 2);
      assert.equal(typeof seenA[0], 'function');
      assert.equal(seenB[0], seenA[0], 'body validator compiled once');
      assert.equal(seenB[1], seenA[1], 'params validator compiled once');
      assert.notEqual(seenA[0], seenA[1]);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('compiles a validator at its first call, not when the server gets ready', async () => {
    // A schema no other test of the process uses (maxLength 7), so nothing shares its validators.
    const before = validatorsCompiled();
    const app = await serverWith(echoRoute([], 7));
    try {
      assert.equal(validatorsCompiled(), before, 'nothing compiled at ready');
      const bad = await app.inject({ method: 'POST', url: '/v1/echo/x', payload: { amount: -1 } });
      assert.equal(bad.statusCode, 400, bad.body);
      assert.match(bad.body, /must be >= 0/, 'the compiled validator’s errors reach the answer');
      assert.equal(validatorsCompiled(), before + 2, 'params and body compiled at the first request');
      const ok = await app.inject({ method: 'POST', url: '/v1/echo/1234567', payload: { amount: 2 } });
      assert.equal(ok.statusCode, 200, ok.body);
      const long = await app.inject({ method: 'POST', url: '/v1/echo/12345678', payload: { amount: 2 } });
      assert.equal(long.statusCode, 400, long.body);
      assert.match(long.body, /must NOT have more than 7 characters/);
      assert.equal(validatorsCompiled(), before + 2, 'compiled once');
    } finally {
      await app.close();
    }
  });

  it('compilePendingValidators compiles every validator still waiting', async () => {
    const app = await serverWith(echoRoute([], 6));
    try {
      const before = validatorsCompiled();
      assert.ok(compilePendingValidators() >= 2);
      assert.equal(validatorsCompiled() >= before + 2, true);
      assert.equal(compilePendingValidators(), 0);
    } finally {
      await app.close();
    }
  });

  it('refuses a route that declares a headers schema (its names would not be lower-cased)', async () => {
    const app = await createGatewayServer({ logLevel: 'silent' });
    try {
      const route: RouteDef = {
        ...echoRoute([]),
        schema: { headers: Type.Object({ 'X-Thing': Type.String() }) },
      };
      assert.throws(() => registerRoutes(app, [route], ctx), /headers schema is not supported/);
    } finally {
      await app.close();
    }
  });
});
