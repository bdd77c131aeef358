// The dashboard as a served node composes it (node/families.ts): on by default behind the telemetry
// profile, absent with `dashboard.enabled = false`; the real bundle from the package build.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { BUILT_ASSETS_DIR, firstLoadGzipBytes, loadAssets } from '../../src/modules/dashboard/assets.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';

describe('the served dashboard', () => {
  const nodes: ServedTestNode[] = [];
  after(async () => {
    for (const n of nodes) await n.stopAll();
  });
  const start = async (o: Record<string, unknown>) => {
    const n = await startServedNode(o);
    nodes.push(n);
    return n;
  };

  it('serves the built bundle under the developer profile; its first load is under 200 KiB gzip', async () => {
    const assets = loadAssets(BUILT_ASSETS_DIR);
    assert.ok(assets, `the package build writes ${BUILT_ASSETS_DIR} (npm run build)`);
    assert.ok(firstLoadGzipBytes(assets) < 200 * 1024);
    const n = await start({ 'telemetry.profile': 'developer' });
    const page = await fetch(`${n.url}/dashboard/`);
    assert.equal(page.status, 200);
    const html = await page.text();
    const script = /src="(main-[A-Z0-9]{8}\.js)"/.exec(html)?.[1];
    assert.ok(script, html);
    const js = await fetch(`${n.url}/dashboard/${script}`);
    assert.equal(js.status, 200);
    assert.equal(js.headers.get('content-type'), 'text/javascript; charset=utf-8');
  });

  it('answers 503 under the default operator profile', async () => {
    const n = await start({ 'telemetry.profile': 'operator' });
    const r = await fetch(`${n.url}/dashboard/`);
    assert.equal(r.status, 503);
    assert.equal(((await r.json()) as { code: string }).code, 'telemetry_profile_restricted');
  });

  it('is absent (404, not registered) with dashboard.enabled = false', async () => {
    const n = await start({ 'telemetry.profile': 'full', 'dashboard.enabled': false });
    for (const path of ['/dashboard', '/dashboard/', '/dashboard/index.html']) {
      const r = await fetch(`${n.url}${path}`);
      assert.equal(r.status, 404, path);
      assert.equal(((await r.json()) as { code: string }).code, 'not_found');
    }
    assert.ok(!n.served.app.gateway.routes.some((r) => r.url.startsWith('/dashboard')));
  });

  it('adds the nodes of dashboard.connect_src to the CSP connect-src after self', async () => {
    const other = 'http://127.0.0.1:18080';
    const n = await start({
      'telemetry.profile': 'developer',
      'dashboard.connect_src': [other, 'https://*.example'],
    });
    const csp = (await fetch(`${n.url}/dashboard/`)).headers.get('content-security-policy') ?? '';
    assert.match(csp, /(^|; )connect-src 'self' http:\/\/127\.0\.0\.1:18080 https:\/\/\*\.example(;|$)/);
    assert.match(csp, /(^|; )script-src 'self'(;|$)/);
  });
});
