// `app_api.enabled` and the families that need it (docs/app-api.md "The switch"): the ISO 20022 bridge and
// the conference routes cannot be on while the application API is off.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type ConfigSources, loadConfig } from './load.js';
// The registry adds the modules' sections `[conference]` and `[iso20022]` to the schema (sections.ts).
import '../modules/registry.js';
import { configToJson, renderConfigToml } from './render.js';
import { type Config, defaultConfig } from './schema.js';

/** `[conference] enabled` of a configuration (a module's section: read through the JSON form). */
const conferenceOn = (c: Config | undefined) =>
  c === undefined ? undefined : (configToJson(c).conference as { enabled: boolean }).enabled;
/** `[iso20022] enabled` (the bridge module's section), likewise. */
const bridgeOn = (c: Config | undefined) =>
  c === undefined ? undefined : (configToJson(c).iso20022 as { enabled: boolean }).enabled;

function load(src: ConfigSources) {
  const r = loadConfig(src);
  return r.ok ? { config: r.config, errors: [] } : { config: undefined, errors: r.errors };
}

describe('app_api.enabled', () => {
  it('is on by default, with conference on and the bridge off', () => {
    assert.equal(defaultConfig().app_api.enabled, true);
    assert.equal(conferenceOn(defaultConfig()), true);
    assert.equal(bridgeOn(defaultConfig()), false);
  });

  it('off: conference left unset follows it, and the result renders and loads back', () => {
    const { config } = load({ file: '[app_api]\nenabled = false\n' });
    assert.ok(config !== undefined);
    assert.equal(config.app_api.enabled, false);
    assert.equal(conferenceOn(config), false);
    const toml = renderConfigToml(config, { onlyNonDefault: true });
    assert.doesNotMatch(toml, /\[conference\]/, 'the followed value is not written out');
    assert.deepEqual(load({ file: toml }).config, config);
    const on = load({ overrides: { 'conference.enabled': false } }).config!;
    assert.match(renderConfigToml(on, { onlyNonDefault: true }), /\[conference\]\n.*\nenabled = false/);
  });

  it('refuses iso20022.enabled = true while off, naming the key, whichever layer set them', () => {
    for (const src of [
      { file: '[app_api]\nenabled = false\n[iso20022]\nenabled = true\n' },
      { env: { TORANA_APP_API_ENABLED: 'false', TORANA_ISO20022_ENABLED: 'true' } },
      { overrides: { 'app_api.enabled': false, 'iso20022.enabled': true } },
    ]) {
      const { errors } = load(src);
      assert.deepEqual(
        errors.map((e) => [e.code, e.key]),
        [['config_invalid_value', 'iso20022.enabled']],
      );
      assert.match(errors[0]!.message, /app_api\.enabled is false/);
      assert.match(errors[0]!.message, /set iso20022\.enabled = false or app_api\.enabled = true/);
    }
  });

  it('refuses conference.enabled = true set explicitly while off', () => {
    const { errors } = load({ overrides: { 'app_api.enabled': 'false', 'conference.enabled': 'true' } });
    assert.deepEqual(
      errors.map((e) => [e.code, e.key]),
      [['config_invalid_value', 'conference.enabled']],
    );
    assert.match(errors[0]!.message, /conference .* routes are part of the application API/);
  });

  it('both refused at once; both off is accepted', () => {
    const { errors } = load({
      overrides: { 'app_api.enabled': false, 'conference.enabled': true, 'iso20022.enabled': true },
    });
    assert.deepEqual(errors.map((e) => e.key).sort(), ['conference.enabled', 'iso20022.enabled']);
    const { config } = load({
      overrides: { 'app_api.enabled': false, 'conference.enabled': false, 'iso20022.enabled': false },
    });
    assert.equal(config?.app_api.enabled, false);
  });

  it('on: conference may be switched off alone and the bridge on', () => {
    const { config } = load({ overrides: { 'conference.enabled': false, 'iso20022.enabled': true } });
    assert.deepEqual([conferenceOn(config), bridgeOn(config)], [false, true]);
  });
});
