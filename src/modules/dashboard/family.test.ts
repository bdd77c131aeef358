import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { createErrorRegistry } from '../../gateway/errors.js';
import type { TelemetryProfile } from '../../gateway/profiles.js';
import { createGatewayServer } from '../../gateway/server.js';
import { firstLoadGzipBytes, loadAssets } from './assets.js';
import { builtDashboard, DASHBOARD_CSP, dashboardFamily } from './family.js';

const JS = 'export const x = 1;\n'.repeat(50);

function assetDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'torana-dash-'));
  mkdirSync(join(dir, 'www'));
  const www = join(dir, 'www');
  writeFileSync(
    join(www, 'index.html'),
    '<!doctype html><script type="module" src="main-ABCDEF12.js"></script>',
  );
  writeFileSync(join(www, 'main-ABCDEF12.js'), JS);
  writeFileSync(join(www, 'main-ABCDEF12.css'), 'body{margin:0}');
  writeFileSync(join(www, 'notes.md'), 'not served: unknown type');
  writeFileSync(join(dir, 'secret.txt'), 'outside the asset folder');
  return dir;
}

async function server(dir: string, profile: TelemetryProfile) {
  const app = await createGatewayServer({ logLevel: 'silent', errors: createErrorRegistry() });
  const assets = loadAssets(join(dir, 'www'));
  assert.ok(assets);
  dashboardFamily({ assets, profile }).install?.(app);
  await app.ready();
  return app;
}

describe('dashboard static route', () => {
  let dir: string;
  let app: Awaited<ReturnType<typeof server>>;
  before(async () => {
    dir = assetDir();
    app = await server(dir, 'developer');
  });
  after(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves index.html at /dashboard/ (and redirects /dashboard) with CSP and no-cache', async () => {
    const r = await app.inject({ method: 'GET', url: '/dashboard' });
    assert.equal(r.statusCode, 308);
    assert.equal(r.headers.location, '/dashboard/');
    const i = await app.inject({ method: 'GET', url: '/dashboard/' });
    assert.equal(i.statusCode, 200);
    assert.equal(i.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(i.headers['content-security-policy'], DASHBOARD_CSP);
    assert.match(DASHBOARD_CSP, /script-src 'self'(;|$)/);
    assert.doesNotMatch(DASHBOARD_CSP, /unsafe/);
    assert.equal(i.headers['x-content-type-options'], 'nosniff');
    assert.equal(i.headers['cache-control'], 'no-cache');
    assert.match(i.body, /main-ABCDEF12\.js/);
  });

  it('serves hashed assets with their content type, immutable caching, gzip and ETag revalidation', async () => {
    const js = await app.inject({ method: 'GET', url: '/dashboard/main-ABCDEF12.js' });
    assert.equal(js.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.equal(js.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(js.body, JS);
    const css = await app.inject({ method: 'GET', url: '/dashboard/main-ABCDEF12.css' });
    assert.equal(css.headers['content-type'], 'text/css; charset=utf-8');
    const gz = await app.inject({
      method: 'GET',
      url: '/dashboard/main-ABCDEF12.js',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.equal(gunzipSync(gz.rawPayload).toString('utf8'), JS);
    assert.ok(gz.rawPayload.length < JS.length / 5);
    const again = await app.inject({
      method: 'GET',
      url: '/dashboard/main-ABCDEF12.js',
      headers: { 'if-none-match': String(js.headers.etag) },
    });
    assert.equal(again.statusCode, 304);
    assert.equal(again.body, '');
  });

  it('answers 404 not_found for unknown files, unknown types and every traversal attempt', async () => {
    for (const url of [
      '/dashboard/nope.js',
      '/dashboard/notes.md',
      '/dashboard/../secret.txt',
      '/dashboard/%2e%2e/secret.txt',
      '/dashboard/..%2fsecret.txt',
      '/dashboard/%2e%2e%2f%2e%2e%2fpackage.json',
      '/dashboard//etc/passwd',
      '/dashboard/main-ABCDEF12.js/',
    ]) {
      const r = await app.inject({ method: 'GET', url });
      assert.ok(r.statusCode === 404, `${url}: ${r.statusCode}`);
      assert.equal(r.json().code, 'not_found', url);
      assert.doesNotMatch(r.body, /outside the asset folder|root:/);
    }
  });

  it('is hidden from the OpenAPI document (static files are not API operations)', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: object };
    assert.deepEqual(
      Object.keys(doc.paths).filter((p) => p.startsWith('/dashboard')),
      [],
    );
    assert.ok(app.gateway.routes.some((r) => r.url === '/dashboard/*' && r.hidden));
  });

  it('is gated by the telemetry profile like the developer routes (503 under operator)', async () => {
    const restricted = await server(dir, 'operator');
    try {
      for (const url of ['/dashboard', '/dashboard/', '/dashboard/main-ABCDEF12.js']) {
        const r = await restricted.inject({ method: 'GET', url });
        assert.equal(r.statusCode, 503, url);
        assert.equal(r.json().code, 'telemetry_profile_restricted');
        assert.deepEqual(r.json().details.served_by, ['developer', 'full']);
      }
    } finally {
      await restricted.close();
    }
  });

  it('counts the first load: index.html plus the files it names, compressed', () => {
    const assets = loadAssets(join(dir, 'www'));
    assert.ok(assets);
    const expected = assets.get('index.html')!.gzip.length + assets.get('main-ABCDEF12.js')!.gzip.length;
    assert.equal(firstLoadGzipBytes(assets), expected);
  });

  it('is absent, with a logged reason, when the bundle was not built', () => {
    const logged: string[] = [];
    const families = builtDashboard('full', (_w, e) => logged.push(String(e)), join(dir, 'missing'));
    assert.deepEqual(families, []);
    assert.match(logged[0] ?? '', /dashboard not built/);
    assert.equal(loadAssets(dir), undefined, 'a folder without index.html is not a dashboard');
  });
});
