// The OpenAPI document of a real node: a valid OpenAPI 3.1 document of exactly the routes this node
// registered under its configuration, generated from the live route table. Checked against the LIVE route
// table, so a family added later is held to the same rules.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import {
  documentedErrorCodes,
  fetchOpenApi,
  type LiveRoute,
  liveRoutes,
  type OpenApiDoc,
  openApiPathOf,
} from '../helpers/route-catalog.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';

const ERROR_BODY_REF = '#/components/schemas/ErrorBody';

type Json = Record<string, unknown>;

function documentedOperations(doc: OpenApiDoc): Set<string> {
  const out = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of Object.keys(item)) out.add(`${method.toUpperCase()} ${path}`);
  }
  return out;
}

describe('OpenAPI document of a served node', () => {
  let t: ServedTestNode;
  let doc: OpenApiDoc;
  let routes: LiveRoute[];
  before(async () => {
    t = await startServedNode({
      'telemetry.profile': 'full',
      'iso20022.enabled': false,
      // CORS adds hidden OPTIONS routes: they must stay out of the document.
      'gateway.cors_origins': ['https://app.example'],
    });
    doc = await fetchOpenApi(t.url);
  });
  after(async () => t.stopAll());

  it('validates as OpenAPI 3.1, and /openapi serves the same document', async () => {
    assert.equal(doc.openapi, '3.1.0');
    const result = await new Validator().validate(doc as never);
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 1)?.slice(0, 4000));
    const alias = await (await fetch(`${t.url}/openapi`)).json();
    assert.deepEqual(alias, doc);
  });

  it('lists exactly the non-hidden registered routes, nothing missing and nothing extra', () => {
    const registered = t.served.app.gateway.routes;
    assert.ok(
      registered.some((r) => r.hidden && r.method === 'OPTIONS'),
      'the CORS preflight route is registered (and hidden)',
    );
    const expected = new Set(
      registered.filter((r) => !r.hidden).map((r) => `${r.method} ${openApiPathOf(r.url)}`),
    );
    const documented = documentedOperations(doc);
    const missing = [...expected].filter((k) => !documented.has(k));
    const extra = [...documented].filter((k) => !expected.has(k));
    assert.deepEqual({ missing, extra }, { missing: [], extra: [] });
    assert.ok(expected.size >= 30, `${expected.size} routes`);
    // Every documented operation maps back to the metadata the gateway keeps for it.
    routes = liveRoutes(t.served.app, doc);
    assert.equal(routes.length, expected.size);
  });

  it('every operation has a unique operationId and a success response with a schema', () => {
    const ids = new Set<string>();
    const problems: string[] = [];
    for (const r of routes) {
      const key = `${r.method} ${r.openApiPath}`;
      if (ids.has(r.operationId)) problems.push(`${key}: operationId ${r.operationId} repeated`);
      ids.add(r.operationId);
      const responses = r.operation.responses ?? {};
      if (r.stream === 'ws') {
        // A WebSocket path succeeds with 101 Switching Protocols, which has no body to describe.
        if (responses['101'] === undefined) problems.push(`${key}: 101 not documented`);
        continue;
      }
      const ok = Object.entries(responses).filter(([s]) => /^2\d\d$/.test(s));
      if (ok.length === 0) problems.push(`${key}: no 2xx response`);
      for (const [status, response] of ok) {
        const media = Object.entries(response.content ?? {});
        // 204 No Content has no body to describe (RFC 9110 §15.3.5).
        if (media.length === 0 && status !== '204') problems.push(`${key} ${status}: no content`);
        for (const [type, m] of media)
          if (m.schema === undefined) problems.push(`${key} ${status} ${type}: no schema`);
      }
    }
    assert.deepEqual(problems, []);
    assert.deepEqual([...ids].sort(), [...t.served.app.gateway.routeMeta.keys()].sort());
  });

  it('documents every error status of every route with the {code, message, details} schema', () => {
    const body = doc.components.schemas.ErrorBody as Json & { properties: Json; required: string[] };
    assert.deepEqual([...body.required].sort(), ['code', 'details', 'message']);
    assert.deepEqual(body.properties.code, { $ref: '#/components/schemas/ErrorCode' });
    assert.deepEqual(body.properties.message, { type: 'string' });
    assert.equal((body.properties.details as Json).type, 'object');
    const problems: string[] = [];
    for (const r of routes) {
      const key = `${r.method} ${r.openApiPath}`;
      const responses = r.operation.responses ?? {};
      const required = new Set([...r.meta.errorStatuses, 400, 406, 429, 500]);
      if (r.meta.bodyFormats.length > 0) for (const s of [413, 415]) required.add(s);
      if (r.meta.visibility === 'operator') for (const s of [401, 403]) required.add(s);
      for (const s of required) if (responses[String(s)] === undefined) problems.push(`${key}: ${s} missing`);
      for (const [status, response] of Object.entries(responses)) {
        if (Number(status) < 400) continue;
        const json = response.content?.['application/json'] as { schema?: { $ref?: string } } | undefined;
        if (json?.schema?.$ref !== ERROR_BODY_REF)
          problems.push(`${key} ${status}: not the ErrorBody schema`);
      }
    }
    assert.deepEqual(problems, []);
  });

  it('the ErrorCode enum equals the error registry, and docs/errors.md lists every code', () => {
    const codes = (doc.components.schemas.ErrorCode as { enum: string[] }).enum;
    const registry = Object.keys(t.served.app.gateway.errors.specs).sort();
    assert.deepEqual([...codes].sort(), registry);
    const documented = documentedErrorCodes();
    const undocumented = registry.filter((c) => !documented.has(c));
    assert.deepEqual(undocumented, [], 'codes in the registry but not in docs/errors.md');
  });

  it('with the ISO 20022 bridge disabled no /v1/iso20022 path appears', () => {
    const iso = Object.keys(doc.paths).filter((p) => p.startsWith('/v1/iso20022'));
    assert.deepEqual(iso, []);
    assert.ok(!t.served.app.gateway.routes.some((r) => r.url.startsWith('/v1/iso20022')));
  });
});

describe('OpenAPI document with the ISO 20022 bridge enabled', () => {
  it('adds exactly the bridge routes and stays valid', async () => {
    const t = await startServedNode({ 'telemetry.profile': 'full', 'iso20022.enabled': true });
    try {
      const doc = await fetchOpenApi(t.url);
      const result = await new Validator().validate(doc as never);
      assert.equal(result.valid, true, JSON.stringify(result.errors, null, 1)?.slice(0, 2000));
      const documented = documentedOperations(doc);
      const registered = new Set(
        t.served.app.gateway.routes
          .filter((r) => !r.hidden)
          .map((r) => `${r.method} ${openApiPathOf(r.url)}`),
      );
      assert.deepEqual([...documented].sort(), [...registered].sort());
      const iso = [...documented].filter((o) => o.includes('/v1/iso20022/'));
      for (const kind of [
        'pacs008',
        'pacs009',
        'pacs002',
        'pacs004',
        'camt056',
        'sese023',
        'sese024',
        'sese025',
        'colr012',
      ]) {
        assert.ok(iso.includes(`POST /v1/iso20022/${kind}`), kind);
      }
      assert.ok(iso.includes('GET /v1/iso20022/messages/{msg_id}'));
      assert.ok(iso.includes('GET /v1/iso20022/audit/messages'));
      for (const xml of ['pacs002', 'pacs004', 'camt029', 'sese024', 'sese025'])
        assert.ok(iso.includes(`GET /v1/iso20022/messages/{msg_id}/${xml}`), xml);
    } finally {
      await t.stopAll();
    }
  });
});
