// The configuration keys and defaults never change when a section moves into a module: the full
// resolved default configuration and the generated config.toml (every section, key, default and doc)
// are compared byte for byte with the ones recorded before the conference section moved
// (test/fixtures/config/default-config.{json,toml}).

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
// The registry adds the modules' sections to the schema (sections.ts).
import '../modules/registry.js';
import { loadConfig } from './load.js';
import { configToJson, renderConfigToml } from './render.js';
import { defaultConfig } from './schema.js';

const fixture = (name: string) =>
  readFileSync(new URL(`../../test/fixtures/config/${name}`, import.meta.url), 'utf8');

describe('default configuration, recorded', () => {
  it('resolves to the recorded JSON, section order included', () => {
    // Compared as compact JSON text: every section, key, value and their order (the fixture is formatted).
    assert.equal(
      JSON.stringify(configToJson(defaultConfig())),
      JSON.stringify(JSON.parse(fixture('default-config.json'))),
    );
  });

  it('renders the recorded config.toml byte for byte', () => {
    assert.equal(renderConfigToml(defaultConfig()), fixture('default-config.toml'));
  });

  it('loads back from it, through the environment too, with a module key set', () => {
    const r = loadConfig({ file: fixture('default-config.toml') });
    assert.ok(r.ok);
    assert.deepEqual(r.config, defaultConfig());
    const env = loadConfig({ env: { TORANA_CONFERENCE_SIGNAL_PAGE_MAX: '7' } });
    assert.ok(env.ok);
    const json = configToJson(env.config) as Record<string, Record<string, unknown>>;
    assert.equal(json.conference?.signal_page_max, 7);
    const bad = loadConfig({ env: { TORANA_CONFERENCE_SIGNAL_PAGE_MAX: '0' } });
    assert.deepEqual(bad.ok ? [] : bad.errors.map((e) => [e.code, e.key]), [
      ['config_invalid_value', 'conference.signal_page_max'],
    ]);
  });
});
