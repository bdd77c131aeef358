import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Registry as PromRegistry } from 'prom-client';
import type { RouteFamily } from '../../gateway/family.js';
import type { EventEnvelope } from '../../model/events.js';
import { QUERY_LANGUAGE } from '../../node/query-language.js';
import type { CommittedEventFeed, ModuleRouteEnv } from '../descriptor.js';
import { testRouteEnv } from '../test-route-env.js';
import { webhooksModule } from './descriptor.js';

/** An event feed that records who listens (the intake subscribes when the family is built). */
function feed(): CommittedEventFeed & { listeners: number } {
  const f = {
    listeners: 0,
    since: (): EventEnvelope[] => [],
    subscribe: () => {
      f.listeners++;
      return () => {
        f.listeners--;
      };
    },
    lastId: () => 0,
  };
  return f;
}

/** A route env with a node directory's store folder (or none), on or off `app_api.enabled`. */
function env(
  storeDir: string | undefined,
  appApi = true,
): ModuleRouteEnv & { feed: ReturnType<typeof feed> } {
  const events = feed();
  return {
    ...testRouteEnv(
      { 'app_api.enabled': appApi },
      {
        deps: { ports: { query: QUERY_LANGUAGE } } as never,
        logError: (what, e) => assert.fail(`${what}: ${String(e)}`),
        events,
        ...(storeDir === undefined ? {} : { storeDir }),
      },
    ),
    feed: events,
  };
}

describe('the webhooks descriptor', () => {
  it('an off-ledger module: no instructions, tables, events or rejections; its codes, CLI and SDK are its own', () => {
    assert.deepEqual(Object.keys(webhooksModule.instructions), []);
    assert.deepEqual(webhooksModule.tables, []);
    assert.deepEqual(webhooksModule.events, []);
    assert.deepEqual(webhooksModule.rejections, []);
    assert.ok(Object.keys(webhooksModule.gatewayErrors ?? {}).includes('webhook_not_found'));
    assert.equal(typeof webhooksModule.cli, 'function');
    assert.equal(typeof webhooksModule.sdk?.verifyWebhookSignature, 'function');
  });

  it('builds no family (and opens no store) without a store folder or without the application API', async () => {
    const base = mkdtempSync(join(tmpdir(), 'torana-webhooks-desc-'));
    try {
      assert.equal(await webhooksModule.routes?.(env(undefined)), undefined);
      const off = env(join(base, 'off'), false);
      assert.equal(await webhooksModule.routes?.(off), undefined);
      assert.ok(!existsSync(join(base, 'off')), 'the store is not even opened');
      assert.equal(off.feed.listeners, 0);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });

  it('with a store folder: opens its store, starts its intake, registers its metrics, and close() stops both', async () => {
    const base = mkdtempSync(join(tmpdir(), 'torana-webhooks-desc-'));
    try {
      const e = env(join(base, 'webhooks'));
      const family = (await webhooksModule.routes?.(e)) as RouteFamily | undefined;
      assert.ok(family !== undefined);
      assert.equal(family.name, 'webhooks');
      assert.equal(family.app, true);
      assert.equal(family.servedAt, 410, 'its routes keep their place in the OpenAPI document');
      assert.ok(existsSync(join(base, 'webhooks', 'data.mdb')), 'its LMDB store is in its folder');
      assert.equal(e.feed.listeners, 1, 'the intake follows the committed events');
      const metrics = new PromRegistry();
      family.install?.({ gateway: { metrics: { registry: metrics } } } as never);
      const names = (await metrics.getMetricsAsJSON()).map((m) => m.name).sort();
      assert.ok(names.includes('webhook_deliveries_total'), names.join(', '));
      await family.close?.();
      assert.equal(e.feed.listeners, 0, 'close() stops the intake');
      // The store is closed: the same folder opens again.
      const again = (await webhooksModule.routes?.(env(join(base, 'webhooks')))) as RouteFamily | undefined;
      await again?.close?.();
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});
