import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../../config/load.js';
import type { RouteFamily } from '../../gateway/family.js';
import type { ModuleRouteEnv } from '../descriptor.js';
import { conferenceModule } from './descriptor.js';

/** A route env whose node parts are never touched: building a family starts nothing. */
function env(enabled: boolean): ModuleRouteEnv {
  const r = loadConfig({ overrides: { 'conference.enabled': enabled } });
  assert.ok(r.ok);
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
  };
}

describe('the conference descriptor', () => {
  it('builds its route family only with conference.enabled, as an application family', async () => {
    assert.equal(await conferenceModule.routes?.(env(false)), undefined);
    const family = (await conferenceModule.routes?.(env(true))) as RouteFamily | undefined;
    assert.equal(family?.name, 'conference');
    assert.equal(family?.app, true);
  });
});
