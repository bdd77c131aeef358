import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Type } from 'typebox';
import { createErrorRegistry } from './errors.js';
import { metricsRoute } from './metrics.js';
import { documentedWildcard } from './openapi.js';
import { disabledOperatorAuth } from './operator-auth.js';
import { type RouteDef, registerRoutes } from './route-table.js';
import { createGatewayServer } from './server.js';
import { registerWsRoute } from './ws.js';

const SAMPLE: RouteDef[] = [
  {
    method: 'POST',
    url: '/transaction',
    operationId: 'submitTransaction',
    summary: 'Submit a signed transaction',
    tags: ['transactions'],
    visibility: 'public',
    bodyFormats: ['codec'],
    formats: { default: 'codec', offers: ['codec', 'json'] },
    errorStatuses: [409],
    schema: { response: { 202: Type.Object({ hash: Type.String() }) } },
    handler: async () => ({ hash: 'x' }),
  },
  {
    method: 'GET',
    url: '/v1/accounts/:id',
    operationId: 'getAccount',
    summary: 'One account',
    tags: ['accounts'],
    visibility: 'public',
    errorStatuses: [404],
    schema: {
      params: Type.Object({ id: Type.String() }),
      querystring: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })) }),
      response: { 200: Type.Object({ id: Type.String(), balance: Type.String() }) },
    },
    handler: async () => ({ id: 'a', balance: '1' }),
  },
  {
    method: 'GET',
    url: '/v1/consensus/leader',
    operationId: 'getConsensusLeader',
    summary: 'Current leader',
    tags: ['consensus'],
    visibility: 'developer',
    schema: { response: { 200: Type.Object({ leader_index: Type.Integer() }) } },
    handler: async () => ({ leader_index: 0 }),
  },
  {
    method: 'POST',
    url: '/v1/runtime/upgrades/cancel/:id',
    operationId: 'cancelUpgrade',
    summary: 'Cancel an upgrade',
    tags: ['runtime'],
    visibility: 'operator',
    schema: { params: Type.Object({ id: Type.String() }), body: Type.Object({ reason: Type.String() }) },
    handler: async () => ({ ok: true }),
  },
  {
    method: 'GET',
    url: '/v1/events/sse',
    operationId: 'streamEvents',
    summary: 'Event stream',
    tags: ['streams'],
    visibility: 'public',
    formats: { default: 'sse', offers: ['sse'] },
    schema: { response: { 200: Type.String({ description: 'text/event-stream' }) } },
    handler: async () => '',
  },
];

type Doc = {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>;
  components: { schemas: { ErrorCode: { enum: string[] } } };
};

describe('OpenAPI document', () => {
  it('is valid OpenAPI 3.1 and lists exactly the registered routes, with their errors', async () => {
    const errors = createErrorRegistry({ already_enqueued: { status: 409, message: 'Already queued.' } });
    const app = await createGatewayServer({
      logLevel: 'silent',
      errors,
      corsOrigins: ['https://app.example'],
    });
    registerRoutes(app, [...SAMPLE, metricsRoute(app.gateway.metrics)], {
      profile: 'operator',
      operatorAuth: disabledOperatorAuth(),
    });
    registerWsRoute(app, '/events', () => {}, {
      operationId: 'subscribeEvents',
      summary: 'Events over WebSocket',
    });
    await app.ready();
    try {
      const res = await app.inject({ method: 'GET', url: '/openapi.json' });
      assert.equal(res.statusCode, 200);
      const doc = res.json() as Doc;
      assert.deepEqual((await app.inject({ method: 'GET', url: '/openapi' })).json(), doc);

      const result = await new Validator().validate(doc as never);
      assert.equal(result.valid, true, JSON.stringify(result.errors, null, 1));
      const broken = structuredClone(doc) as unknown as { paths: Record<string, Record<string, unknown>> };
      broken.paths['/transaction']!.post = { responses: 'none' };
      assert.equal(
        (await new Validator().validate(broken as never)).valid,
        false,
        'the validator does validate',
      );

      const documented = new Set<string>();
      for (const [path, item] of Object.entries(doc.paths)) {
        for (const method of Object.keys(item)) documented.add(`${method.toUpperCase()} ${path}`);
      }
      const registered = new Set(
        app.gateway.routes
          .filter((r) => !r.hidden)
          .map((r) => `${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`),
      );
      assert.deepEqual([...documented].sort(), [...registered].sort());
      assert.ok(
        registered.has('GET /events') && registered.has('GET /metrics') && registered.has('GET /openapi'),
      );
      assert.ok(
        app.gateway.routes.some((r) => r.method === 'OPTIONS' && r.hidden),
        'CORS preflight route is hidden',
      );

      assert.deepEqual(doc.components.schemas.ErrorCode.enum, Object.keys(errors.specs).sort());
      for (const [path, item] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(item)) {
          for (const status of ['400', '406', '429', '500']) {
            const body = op.responses[status]?.content?.['application/json'];
            assert.deepEqual(
              body,
              { schema: { $ref: '#/components/schemas/ErrorBody' } },
              `${method} ${path} ${status}`,
            );
          }
        }
      }
      const tx = doc.paths['/transaction']!.post!.responses;
      assert.ok(tx['409'] && tx['413'] && tx['415'], 'declared and body errors documented');
      assert.ok(tx['202']!.content!['application/x-codec'], 'codec answer documented');
      assert.ok(doc.paths['/v1/consensus/leader']!.get!.responses['503'], 'restricted route documents 503');
      assert.ok(!doc.paths['/v1/accounts/{id}']!.get!.responses['503']);
      assert.ok(doc.paths['/v1/runtime/upgrades/cancel/{id}']!.post!.responses['401']);
      assert.ok(doc.paths['/v1/events/sse']!.get!.responses['200']!.content!['text/event-stream']);
      assert.ok(
        doc.paths['/metrics']!.get!.responses['503'],
        'metrics are restricted under the operator profile',
      );
      assert.ok(doc.paths['/events']!.get!.responses['426']);
    } finally {
      await app.close();
    }
  });

  it('marks node-local operations in their description and with x-ledger-node-local', async () => {
    const app = await createGatewayServer({ logLevel: 'silent', errors: createErrorRegistry({}) });
    const route = (url: string, operationId: string, nodeLocal?: boolean): RouteDef => ({
      method: 'GET',
      url,
      operationId,
      summary: operationId,
      description: 'Registrations of this node.',
      tags: ['x'],
      visibility: 'public',
      ...(nodeLocal === undefined ? {} : { nodeLocal }),
      schema: { response: { 200: Type.Object({}) } },
      handler: async () => ({}),
    });
    registerRoutes(app, [route('/local', 'local', true), route('/shared', 'shared')], {
      profile: 'operator',
      operatorAuth: disabledOperatorAuth(),
    });
    await app.ready();
    try {
      const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
        paths: Record<string, { get: { description?: string; 'x-ledger-node-local'?: boolean } }>;
      };
      assert.equal(doc.paths['/local']!.get.description, 'Node-local: Registrations of this node.');
      assert.equal(doc.paths['/local']!.get['x-ledger-node-local'], true);
      assert.equal(doc.paths['/shared']!.get.description, 'Registrations of this node.');
      assert.equal(doc.paths['/shared']!.get['x-ledger-node-local'], undefined);
      assert.equal((await new Validator().validate(doc as never)).valid, true);
    } finally {
      await app.close();
    }
  });
});

describe('serving the OpenAPI document', () => {
  it('serializes the document once and serves the same bytes on both routes from then on', async () => {
    const app = await createGatewayServer({ logLevel: 'silent', errors: createErrorRegistry({}) });
    registerRoutes(app, SAMPLE, { profile: 'operator', operatorAuth: disabledOperatorAuth() });
    await app.ready();
    try {
      const build = app.swagger.bind(app) as () => unknown;
      let built = 0;
      app.swagger = (() => {
        built++;
        return build();
      }) as typeof app.swagger;
      const answers = [];
      for (const url of ['/openapi.json', '/openapi', '/openapi.json'])
        answers.push(await app.inject({ method: 'GET', url }));
      assert.equal(built, 1, 'the document is read and serialized once');
      for (const a of answers) {
        assert.equal(a.statusCode, 200);
        assert.equal(a.headers['content-type'], 'application/json; charset=utf-8');
        assert.equal(a.body, JSON.stringify(build()));
        assert.equal(Number(a.headers['content-length']), a.rawPayload.length);
      }
    } finally {
      await app.close();
    }
  });
});

describe('a wildcard route in the OpenAPI document', () => {
  it('documents the rest of the path as the {path} parameter (Fastify names it *)', () => {
    const params = Type.Object({ id: Type.String(), '*': Type.String({ maxLength: 9 }) });
    const out = documentedWildcard({ params }, '/v1/files/:id/*');
    assert.equal(out.url, '/v1/files/:id/:path');
    const p = out.schema.params as { properties: Record<string, unknown>; required: string[] };
    assert.deepEqual(Object.keys(p.properties), ['id', 'path']);
    assert.deepEqual(p.required, ['id', 'path']);
    assert.deepEqual(documentedWildcard({ params }, '/v1/files/:id'), {
      schema: { params },
      url: '/v1/files/:id',
    });
  });
});
