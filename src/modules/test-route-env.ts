// Test support for the modules' descriptor tests (left out of the build, tsconfig.build.json): a route
// env over the node configuration with `overrides` whose node parts are never touched, so building a
// family with it starts nothing; `parts` replaces any of them (a recording logger, committed reads, an
// event feed, a store folder). It imports the registry: every module's configuration section is known
// (a descriptor test run alone, not after another file that imported it, loads its module's keys too).
import './registry.js';
import assert from 'node:assert/strict';
import { loadConfig } from '../config/load.js';
import type { ModuleRouteEnv } from './descriptor.js';

export function testRouteEnv(
  overrides: Record<string, unknown>,
  parts: Partial<ModuleRouteEnv> = {},
): ModuleRouteEnv {
  const r = loadConfig({ overrides });
  assert.ok(r.ok, JSON.stringify(r));
  return {
    state: {} as never,
    deps: {} as never,
    config: r.config,
    signedRequests: {} as never,
    now: () => 0,
    logError: () => undefined,
    operatorAuth: {} as never,
    operatorSessions: {} as never,
    logInfo: () => undefined,
    events: {} as never,
    reads: () => Promise.reject(new Error('not read')),
    ...parts,
  };
}
