// The explorer's section `[explorer]`: its own check (explorer.pg named for the postgres backend), its
// place and environment names, and the committed-reads source its descriptor names from it.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import '../registry.js';
import type { ConfigError } from '../../config/errors.js';
import { type ConfigSources, loadConfig } from '../../config/load.js';
import { configSchema, sectionValues } from '../../config/schema.js';
import { readSourceOf } from '../../node/read-backend.js';
import { explorerConfig } from './config.js';
import { explorerModule } from './descriptor.js';

function ok(src: ConfigSources) {
  const r = loadConfig(src);
  assert.ok(r.ok, r.ok ? '' : JSON.stringify(r.errors, null, 2));
  return r.config;
}
function only(src: ConfigSources): ConfigError {
  const r = loadConfig(src);
  assert.ok(!r.ok, 'expected errors');
  assert.equal(r.errors.length, 1, JSON.stringify(r.errors, null, 2));
  return r.errors[0]!;
}

describe('[explorer]', () => {
  it('needs explorer.pg when explorer.backend is postgres (the section’s own check)', () => {
    const e = only({ overrides: { 'explorer.backend': 'postgres' } });
    assert.deepEqual([e.code, e.key], ['config_invalid_value', 'explorer.pg']);
    assert.match(e.message, /explorer\.backend is "postgres" but explorer\.pg is empty/);
    const pg = 'host=/run/postgresql dbname=ledger';
    const c = sectionValues(
      ok({ overrides: { 'explorer.backend': 'postgres', 'explorer.pg': pg } }),
      explorerConfig,
    );
    assert.deepEqual([c.backend, c.pg, c.pgPollMs], ['postgres', pg, 500]);
    assert.equal(sectionValues(ok({}), explorerConfig).backend, 'embedded');
    const env = ok({
      env: { TORANA_EXPLORER_BACKEND: 'postgres', TORANA_EXPLORER_PG: pg, TORANA_EXPLORER_PG_POLL_MS: '75' },
    });
    assert.deepEqual(Object.values(sectionValues(env, explorerConfig)), ['postgres', pg, 75]);
  });

  it('is written where the core had it: after [query] and [history], before [signed_requests]', () => {
    const names = Object.keys(configSchema());
    const at = names.indexOf('explorer');
    assert.deepEqual(names.slice(at - 2, at + 2), ['query', 'history', 'explorer', 'signed_requests']);
  });

  it('names the committed reads: the ledger when embedded or without the app API, else the replica', () => {
    const pg = 'dbname=ledger';
    const modules = [explorerModule];
    assert.deepEqual(readSourceOf(ok({}), modules), { kind: 'ledger' });
    const postgres = ok({
      overrides: { 'explorer.backend': 'postgres', 'explorer.pg': pg, 'explorer.pg_poll_ms': 40 },
    });
    assert.deepEqual(readSourceOf(postgres, modules), {
      kind: 'pg-replica',
      conninfo: pg,
      pollMs: 40,
      label: 'explorer.pg',
    });
    assert.deepEqual(readSourceOf(postgres, []), { kind: 'ledger' }, 'no module names one');
    const noApp = ok({
      overrides: { 'explorer.backend': 'postgres', 'explorer.pg': pg, 'app_api.enabled': false },
    });
    assert.deepEqual(readSourceOf(noApp, modules), { kind: 'ledger' });
    assert.throws(
      () => readSourceOf(postgres, [explorerModule, { ...explorerModule, name: 'other' }]),
      /modules explorer and other each name a committed-reads source/,
    );
  });
});
