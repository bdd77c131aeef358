// The operator module as the node finds it: its sign-in family always, the passkeys' only with
// `operator.passkeys_enabled`, both over the gateway's session store from the route env, and each served
// where its routes always were (after the transaction history's family, after the policy family).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { placeFamilies, type RouteFamily } from '../../gateway/family.js';
import { OperatorSessions } from '../../gateway/operator-sessions.js';
import { moduleFamilies } from '../load.js';
import { testRouteEnv } from '../test-route-env.js';
import { operatorModule } from './descriptor.js';

function env(passkeys: boolean) {
  const sessions = new OperatorSessions({
    operators: [],
    audience: { chainId: 'c', nodeKey: 'n' } as never,
    challengeTtlMs: 60_000,
    sessionTtlMs: 60_000,
    sessionsMax: 4,
    challengesMax: 4,
    challengesPerClientMax: 4,
    auditMax: 10,
    now: () => 0,
    log: () => {},
  });
  const overrides = passkeys
    ? {
        'operator.passkeys_enabled': true,
        'operator.passkey_rp_id': 'localhost',
        'operator.passkey_origins': ['http://localhost:8080'],
      }
    : {};
  return testRouteEnv(overrides, { operatorSessions: sessions });
}

describe('the operator module', () => {
  it('serves its sign-in family always and the passkeys family only with operator.passkeys_enabled', async () => {
    const off = await moduleFamilies(env(false), [operatorModule]);
    assert.deepEqual(
      off.map((f) => [f.name, f.app, f.servedAfter]),
      [['operator', false, 'history']],
    );
    const on = await moduleFamilies(env(true), [operatorModule]);
    assert.deepEqual(
      on.map((f) => [f.name, f.app, f.servedAfter]),
      [
        ['operator', false, 'history'],
        ['operator-passkeys', false, 'policy'],
      ],
    );
  });

  it('its families keep the place their routes always had in the route table', async () => {
    const [signIn, passkeys] = await moduleFamilies(env(true), [operatorModule]);
    const f = (name: string): RouteFamily => ({ name, app: false, routes: () => [] });
    // node/families.ts: the modules' families come early in the list; these two name where they go.
    const list = [
      f('ledger-proofs'),
      signIn!,
      passkeys!,
      f('dashboard'),
      f('history'),
      f('policy'),
      f('mcp'),
    ];
    assert.deepEqual(
      placeFamilies(list).map((x) => x.name),
      ['ledger-proofs', 'dashboard', 'history', 'operator', 'policy', 'operator-passkeys', 'mcp'],
    );
  });
});
