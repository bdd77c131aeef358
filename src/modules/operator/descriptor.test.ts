// The operator module as the node finds it: its sign-in family always, the passkeys' only with
// `operator.passkeys_enabled`, both over the gateway's session store from the route env, and each served
// where its routes always were (after the transaction history's family, after the policy family).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ERRORS } from '../../gateway/errors.js';
import { placeFamilies, type RouteFamily } from '../../gateway/family.js';
import { OperatorSessions } from '../../gateway/operator-sessions.js';
import { moduleFamilies, sessionsWithoutKeys } from '../load.js';
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
      off.map((f) => [f.name, f.app, f.servedAt]),
      [['operator', false, 440]],
    );
    const on = await moduleFamilies(env(true), [operatorModule]);
    assert.deepEqual(
      on.map((f) => [f.name, f.app, f.servedAt]),
      [
        ['operator', false, 440],
        ['operator-passkeys', false, 510],
      ],
    );
  });

  it('opens operator routes to session tokens without operator keys only while the passkeys are served', () => {
    assert.equal(sessionsWithoutKeys(env(false).config, [operatorModule]), false);
    assert.equal(sessionsWithoutKeys(env(true).config, [operatorModule]), true);
    // Decided by the installed modules: a build without this one never opens them so.
    assert.equal(sessionsWithoutKeys(env(true).config, []), false);
  });

  it("declares the passkeys' gateway error codes, which the core table no longer holds", () => {
    const codes = Object.keys(operatorModule.gatewayErrors ?? {});
    assert.ok(codes.includes('operator_passkey_replay') && codes.includes('operator_passkeys_full'));
    for (const code of codes) assert.ok(!Object.hasOwn(ERRORS, code), code);
  });

  it('its families keep the place their routes always had in the route table', async () => {
    const [signIn, passkeys] = await moduleFamilies(env(true), [operatorModule]);
    const f = (name: string, servedAt: number): RouteFamily => ({
      name,
      app: false,
      servedAt,
      routes: () => [],
    });
    // node/families.ts: the modules' families come early in the list; their ranks say where they go
    // (docs/design/modules.md "Serving order").
    const list = [
      f('ledger-proofs', 200),
      signIn!,
      passkeys!,
      f('dashboard', 430),
      f('history', 420),
      f('policy', 500),
      f('mcp', 600),
    ];
    assert.deepEqual(
      placeFamilies(list).map((x) => x.name),
      ['ledger-proofs', 'history', 'dashboard', 'operator', 'policy', 'operator-passkeys', 'mcp'],
    );
  });
});
