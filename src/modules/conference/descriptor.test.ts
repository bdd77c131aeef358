import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RouteFamily } from '../../gateway/family.js';
import type { ModuleRouteEnv } from '../descriptor.js';
import { testRouteEnv } from '../test-route-env.js';
import { conferenceModule } from './descriptor.js';

/** A route env whose node parts are never touched: building a family starts nothing. */
function env(enabled: boolean): ModuleRouteEnv {
  return testRouteEnv({ 'conference.enabled': enabled });
}

describe('the conference descriptor', () => {
  it('builds its route family only with conference.enabled, as an application family', async () => {
    assert.equal(await conferenceModule.routes?.(env(false)), undefined);
    const family = (await conferenceModule.routes?.(env(true))) as RouteFamily | undefined;
    assert.equal(family?.name, 'conference');
    assert.equal(family?.app, true);
  });
});
