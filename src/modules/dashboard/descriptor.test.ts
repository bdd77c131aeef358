// The registry first: it adds the modules' configuration sections before the first read of the schema.
import '../registry.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RouteFamily } from '../../gateway/family.js';
import type { ModuleRouteEnv } from '../descriptor.js';
import { testRouteEnv } from '../test-route-env.js';
import { BUILT_ASSETS_DIR, loadAssets } from './assets.js';
import { dashboardModule } from './descriptor.js';

/** A route env over the node configuration with `overrides`, recording what it logs. */
function env(overrides: Record<string, unknown>): ModuleRouteEnv & { logged: string[] } {
  const logged: string[] = [];
  return {
    ...testRouteEnv(overrides, {
      deps: { profile: 'developer' } as never,
      logError: (what) => logged.push(what),
    }),
    logged,
  };
}

describe('the dashboard descriptor', () => {
  it('an off-ledger module: no instructions, tables, events or rejections; its docs page and security section', () => {
    assert.deepEqual(Object.keys(dashboardModule.instructions), []);
    assert.deepEqual(dashboardModule.tables, []);
    assert.deepEqual(dashboardModule.events, []);
    assert.deepEqual(dashboardModule.rejections, []);
    assert.equal(dashboardModule.docs, 'docs/dashboard.md');
    assert.match(dashboardModule.docSections?.['security-sections']?.[0] ?? '', /^## The dashboard\n/);
    assert.equal(dashboardModule.hostsDocSections?.['dashboard-additions']?.page, 'docs/dashboard.md');
  });

  it('with dashboard.enabled and a built bundle: its family, at its rank in the serving order', async () => {
    assert.ok(loadAssets(BUILT_ASSETS_DIR), `the package build writes ${BUILT_ASSETS_DIR} (npm run build)`);
    const e = env({ 'dashboard.enabled': true });
    const f = (await dashboardModule.routes?.(e)) as RouteFamily | undefined;
    assert.equal(f?.name, 'dashboard');
    // Where its routes have always been (docs/design/modules.md "Serving order").
    assert.equal(f?.servedAt, 430);
    assert.deepEqual(e.logged, []);
  });

  it('with dashboard.enabled = false: no family at all', async () => {
    const e = env({ 'dashboard.enabled': false });
    assert.equal(await dashboardModule.routes?.(e), undefined);
    assert.deepEqual(e.logged, []);
  });
});
