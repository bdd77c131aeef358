import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { Type } from 'typebox';
import type { GatewayApp } from './context.js';
import { metricsRoute, routeLabel } from './metrics.js';
import { disabledOperatorAuth } from './operator-auth.js';
import { registerRoutes } from './route-table.js';
import { createGatewayServer } from './server.js';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

function parseLabels(text: string, line: number): Record<string, string> {
  const labels: Record<string, string> = {};
  let rest = text;
  while (rest.length > 0) {
    const m = LABEL.exec(rest);
    assert.ok(m, `line ${line}: bad label syntax in {${text}}`);
    assert.ok(!(m[1]! in labels), `line ${line}: duplicate label ${m[1]}`);
    labels[m[1]!] = m[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    rest = rest.slice(m[0].length);
    if (rest.startsWith(',')) rest = rest.slice(1);
    else assert.equal(rest, '', `line ${line}: junk after label`);
  }
  return labels;
}

/** A strict parser of the Prometheus text exposition format 0.0.4. */
function parsePrometheusText(text: string): Sample[] {
  assert.ok(text.endsWith('\n'), 'exposition must end with a newline');
  const typed = new Map<string, string>();
  const seen = new Set<string>();
  const samples: Sample[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = i + 1;
    if (raw === '') return;
    const meta = /^# (HELP|TYPE) (\S+) (.*)$/.exec(raw);
    if (meta !== null) {
      assert.match(meta[2]!, NAME, `line ${line}: bad metric name`);
      if (meta[1] === 'TYPE') {
        assert.ok(TYPES.has(meta[3]!), `line ${line}: unknown type ${meta[3]}`);
        assert.ok(!typed.has(meta[2]!), `line ${line}: TYPE repeated`);
        typed.set(meta[2]!, meta[3]!);
      }
      return;
    }
    if (raw.startsWith('#')) return;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: (-?\d+))?$/.exec(raw);
    assert.ok(m, `line ${line}: not a sample: ${raw}`);
    const name = m[1]!;
    const family = typed.has(name) ? name : name.replace(/_(bucket|sum|count)$/, '');
    assert.ok(typed.has(family), `line ${line}: sample ${name} before its TYPE`);
    const labels = parseLabels(m[2] ?? '', line);
    if (name.endsWith('_bucket') && typed.get(family) === 'histogram')
      assert.ok('le' in labels, `line ${line}: no le`);
    const value = m[3] === '+Inf' ? Infinity : m[3] === '-Inf' ? -Infinity : Number(m[3]);
    assert.ok(m[3] === 'NaN' || !Number.isNaN(value), `line ${line}: bad value ${m[3]}`);
    const key = `${name}${JSON.stringify(Object.entries(labels).sort())}`;
    assert.ok(!seen.has(key), `line ${line}: duplicate series`);
    seen.add(key);
    samples.push({ name, labels, value });
  });
  return samples;
}

async function metricsServer(): Promise<GatewayApp> {
  const app = await createGatewayServer({ logLevel: 'silent', limits: { ratePerSecond: 0 } });
  registerRoutes(
    app,
    [
      metricsRoute(app.gateway.metrics),
      {
        method: 'GET',
        url: '/v1/accounts/:id',
        operationId: 'getAccount',
        summary: 'account',
        tags: ['test'],
        visibility: 'public',
        schema: { params: Type.Object({ id: Type.String() }) },
        handler: async () => ({}),
      },
    ],
    { profile: 'full', operatorAuth: disabledOperatorAuth() },
  );
  await app.ready();
  return app;
}

describe('metrics', () => {
  it('serves strict Prometheus text whose series stay bounded after 1,000 random unmatched paths', async () => {
    const app = await metricsServer();
    const other = await metricsServer();
    try {
      for (let i = 0; i < 1_000; i++) {
        await app.inject({ method: 'GET', url: `/${randomBytes(6).toString('hex')}/${i}` });
      }
      for (let i = 0; i < 50; i++) await app.inject({ method: 'GET', url: `/v1/accounts/acc${i}` });
      await app.inject({ method: 'GET', url: '/v1/accounts/x', headers: { 'x-ledger-api-version': 'zz' } });
      const res = await app.inject({ method: 'GET', url: '/metrics' });
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
      const samples = parsePrometheusText(res.body);
      const requests = samples.filter((s) => s.name === 'http_requests_total');
      assert.deepEqual(
        requests.map((s) => `${s.labels.route} ${s.labels.method} ${s.labels.status} ${s.value}`).sort(),
        ['/v1/accounts/:id GET 200 50', '/v1/accounts/:id GET 400 1', 'unmatched GET 404 1000'],
      );
      const routes = new Set(
        samples.filter((s) => s.name.startsWith('http_request_duration')).map((s) => s.labels.route),
      );
      assert.deepEqual([...routes].sort(), ['/v1/accounts/:id', 'unmatched']);
      assert.ok(samples.length < 100, `${samples.length} samples`);
      const rejected = samples.filter((s) => s.name === 'http_rejected_requests_total');
      assert.deepEqual(rejected.map((s) => `${s.labels.reason} ${s.value}`).sort(), [
        'invalid_api_version 1',
        'not_found 1000',
      ]);
      // A second node in the same process has its own registry.
      const otherText = (await other.inject({ method: 'GET', url: '/metrics' })).body;
      assert.ok(
        !parsePrometheusText(otherText).some((s) => s.name === 'http_requests_total' && s.value >= 1000),
      );
    } finally {
      await app.close();
      await other.close();
    }
  });

  it('labels a request by the route its hooks name exactly as Fastify names it, and unmatched ones alike', async () => {
    const app = await createGatewayServer({ logLevel: 'silent', limits: { ratePerSecond: 0 } });
    const seen: { fast: string; general: string; named: boolean }[] = [];
    // Registered before the routes' hooks run, after every hook of the request: the label as the
    // metrics hook reads it, next to Fastify's own route options.
    app.addHook('onResponse', (req, _reply, done) => {
      const general = req.is404 ? 'unmatched' : (req.routeOptions.url ?? 'unmatched');
      seen.push({ fast: routeLabel(req), general, named: req.metricsRoute !== '' });
      done();
    });
    const route = (url: string, operationId: string, visibility: 'public' | 'metrics') => ({
      method: 'GET' as const,
      url,
      operationId,
      summary: operationId,
      tags: ['test'],
      visibility,
      schema: { params: Type.Object({ id: Type.String({ maxLength: 4 }) }) },
      handler: async () => ({}),
    });
    registerRoutes(
      app,
      [route('/v1/things/:id', 'getThing', 'public'), route('/v1/secrets/:id', 'getSecret', 'metrics')],
      { profile: 'operator', operatorAuth: disabledOperatorAuth() },
    );
    await app.ready();
    try {
      const codes: number[] = [];
      for (const [url, headers] of [
        ['/v1/things/a', {}],
        ['/v1/things/toolong', {}],
        ['/v1/things/a', { accept: 'image/png' }],
        ['/v1/secrets/a', {}],
        ['/v1/things/a', { 'x-ledger-api-version': 'zz' }],
        ['/nowhere', {}],
      ] as const)
        codes.push((await app.inject({ method: 'GET', url, headers })).statusCode);
      assert.deepEqual(codes, [200, 400, 406, 503, 400, 404]);
      assert.deepEqual(
        seen.map((s) => s.fast),
        [
          '/v1/things/:id',
          '/v1/things/:id',
          '/v1/things/:id',
          '/v1/secrets/:id',
          '/v1/things/:id',
          'unmatched',
        ],
      );
      for (const s of seen) assert.equal(s.fast, s.general);
      // The route's own hooks named it (no route options built) wherever they ran.
      assert.deepEqual(
        seen.map((s) => s.named),
        [true, true, true, true, false, false],
      );
    } finally {
      await app.close();
    }
  });

  it('the strict parser rejects malformed exposition', () => {
    assert.throws(() => parsePrometheusText('x 1\n'), /before its TYPE/);
    assert.throws(() => parsePrometheusText('# TYPE x counter\nx{a="1} 1\n'), /label/);
    assert.throws(() => parsePrometheusText('# TYPE x counter\nx 1\nx 2\n'), /duplicate/);
    assert.throws(() => parsePrometheusText('# TYPE x counter\nx one\n'), /bad value/);
  });
});
