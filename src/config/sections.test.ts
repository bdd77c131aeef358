// Module configuration sections (sections.ts): a module's section joins the one schema after the core's
// application families, its switches join the app API's description, and the list seals on first read.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import '../modules/registry.js';
import { configKeys, keyByEnvVar } from './keys.js';
import { checkSections, configFollows, configNeeds } from './rules.js';
import { type Config, composeConfigSchema, configSchema, MODULE_SECTIONS_AFTER } from './schema.js';
import { addConfigSections, moduleConfigSections, moduleSection } from './sections.js';
import { bool, int, oneOf, section, str } from './spec.js';

const demo = moduleSection({
  name: 'demo',
  spec: section('A demo family.', {
    enabled: bool(false, 'Serve the demo routes.'),
    page_max: int(10, 1, 100, 'Largest demo page.'),
  }),
  needs: [{ key: 'enabled', needs: 'app_api.enabled', why: 'demo routes are app routes' }],
});

describe('module config sections', () => {
  it('names a section marked appFamily among the application families, with no enabled switch', () => {
    const reads = moduleSection({
      name: 'demo_reads',
      appFamily: true,
      spec: section('Demo reads.', { page_max: int(10, 1, 100, 'Largest page.') }),
    });
    const doc = composeConfigSchema([reads, demo]).app_api?.keys.enabled?.doc ?? '';
    assert.match(doc, /NFTs, demo_reads, demo, \.\.\.\); false: /);
    assert.match(doc, / demo\.enabled needs it\.$/, 'no switch of its own');
    assert.doesNotMatch(composeConfigSchema([]).app_api?.keys.enabled?.doc ?? '', /explorer/);
    // The explorer is named there as it always was, first of the modules' families.
    assert.match(
      configSchema().app_api?.keys.enabled?.doc ?? '',
      /\(accounts, domains, asset definitions, NFTs, explorer, /,
    );
  });

  it('reports a section’s own check as config_invalid_value at its key, and throws on a key it lacks', () => {
    const source = moduleSection({
      name: 'demo_source',
      spec: section('A demo source.', {
        kind: oneOf(['local', 'remote'], 'local', 'Where from.'),
        remote_url: str('', 'The remote, for kind = "remote".'),
      }),
      check: (v) =>
        v.kind === 'remote' && v.remoteUrl === ''
          ? [{ key: 'remote_url', message: 'demo_source.kind is "remote" but remote_url is empty' }]
          : [],
    });
    const config = (values: object) => ({ demo_source: values }) as unknown as Config;
    assert.deepEqual(checkSections(config({ kind: 'local', remoteUrl: '' }), [source]), []);
    assert.deepEqual(checkSections(config({ kind: 'remote', remoteUrl: 'x' }), [source]), []);
    assert.deepEqual(checkSections(config({ kind: 'remote', remoteUrl: '' }), [source]), [
      {
        code: 'config_invalid_value',
        key: 'demo_source.remote_url',
        message: 'demo_source.kind is "remote" but remote_url is empty',
      },
    ]);
    assert.deepEqual(checkSections(config({ kind: 'remote', remoteUrl: '' }), [demo]), [], 'no check: none');
    const wrong = moduleSection({ ...source, check: () => [{ key: 'nope', message: 'x' }] });
    assert.throws(() => checkSections(config({}), [wrong]), /checks an unknown key nope/);
  });

  it('places module sections after the core application families, in order, and lists their switches', () => {
    const names = Object.keys(composeConfigSchema([demo]));
    const at = names.indexOf(MODULE_SECTIONS_AFTER);
    assert.deepEqual(names.slice(at, at + 3), [MODULE_SECTIONS_AFTER, 'demo', 'mcp']);
    assert.equal(names.at(-1), 'log');
    const doc = composeConfigSchema([demo]).app_api?.keys.enabled?.doc ?? '';
    assert.match(doc, /NFTs, demo, \.\.\.\)/);
    assert.match(doc, / demo\.enabled needs it\.$/);
    const three = composeConfigSchema([demo, { ...demo, name: 'demo_two' }]).app_api?.keys.enabled?.doc;
    assert.match(three ?? '', / demo\.enabled and demo_two\.enabled need it\.$/);
    const core = composeConfigSchema([]).app_api?.keys.enabled?.doc ?? '';
    assert.doesNotMatch(core, /demo/);
    assert.match(core, /NFTs, \.\.\.\); false: .* routes stay\.$/);
  });

  it('writes the keys of an in-core section in the core section of its name, after the core’s own', () => {
    const extra = moduleSection({
      name: 'verify',
      inCoreSection: true,
      spec: section('Keys a module adds to [verify].', { batch_max: int(8, 1, 64, 'Largest batch.') }),
    });
    const core = composeConfigSchema([]);
    const composed = composeConfigSchema([extra]);
    assert.deepEqual(Object.keys(composed), Object.keys(core), 'no section of its own');
    assert.deepEqual(Object.keys(composed.verify?.keys ?? {}), [
      ...Object.keys(core.verify?.keys ?? {}),
      'batch_max',
    ]);
    assert.equal(composed.verify?.doc, core.verify?.doc, 'the core section’s doc');
    assert.deepEqual(Object.keys(core.verify?.keys ?? {}), ['threads'], 'the core’s schema untouched');
    assert.throws(
      () => composeConfigSchema([{ ...extra, name: 'nowhere' }]),
      /config section nowhere adds to no core section of that name/,
    );
    assert.throws(
      () => composeConfigSchema([{ ...extra, spec: section('x', { threads: int(1, 0, 2, 'again') }) }]),
      /config key verify\.threads is the core's/,
    );
    assert.throws(
      () => composeConfigSchema([{ ...extra, writtenAfter: 'gateway' }]),
      /config section verify is in a core section: no writtenAfter/,
    );
    // The telemetry module's keys sit in the core's [telemetry], after its profile, as they always did.
    assert.deepEqual(Object.keys(configSchema().telemetry?.keys ?? {}), [
      'profile',
      'live_interval_ms',
      'gossip_interval_ms',
      'gateway_url',
      'peer_reports_max',
      'peer_report_stale_ms',
      'peer_report_min_gap_ms',
    ]);
    assert.equal(keyByEnvVar('TORANA_TELEMETRY_GOSSIP_INTERVAL_MS')?.path, 'telemetry.gossip_interval_ms');
  });

  it('writes a section naming a core section right after it, ahead of the others, and a family by its title', () => {
    const early = moduleSection({
      ...demo,
      name: 'early',
      title: 'Early Bird',
      writtenAfter: MODULE_SECTIONS_AFTER,
    });
    const names = Object.keys(composeConfigSchema([demo, early]));
    const at = names.indexOf(MODULE_SECTIONS_AFTER);
    assert.deepEqual(names.slice(at, at + 4), [MODULE_SECTIONS_AFTER, 'early', 'demo', 'mcp']);
    const elsewhere = Object.keys(composeConfigSchema([demo, { ...early, writtenAfter: 'gateway' }]));
    assert.equal(elsewhere[elsewhere.indexOf('gateway') + 1], 'early');
    assert.deepEqual(elsewhere.slice(elsewhere.indexOf(MODULE_SECTIONS_AFTER) + 1).slice(0, 2), [
      'demo',
      'mcp',
    ]);
    const doc = composeConfigSchema([demo, early]).app_api?.keys.enabled?.doc ?? '';
    // Listed in the order the sections are written: the one placed ahead first.
    assert.match(doc, /NFTs, Early Bird, demo, \.\.\.\)/);
    assert.match(doc, / early\.enabled and demo\.enabled need it\.$/);
    assert.throws(
      () => composeConfigSchema([{ ...demo, writtenAfter: 'nowhere' }]),
      /config section demo is written after nowhere, which is not a core section/,
    );
  });

  it('refuses a module section named like a core one', () => {
    assert.throws(() => composeConfigSchema([{ ...demo, name: 'gateway' }]), /gateway is the core's/);
  });

  it('lists the app API rules of keys written in a core section, with the same tables in the same order', () => {
    const tail = moduleSection({
      name: 'gateway',
      inCoreSection: true,
      spec: section('Keys a module adds to the gateway.', {
        demo_limit: int(3, 1, 9, 'A demo limit.'),
        demo_on: bool(false, 'A demo switch.'),
      }),
      needs: [{ key: 'demo_on', needs: 'app_api.enabled', why: 'demo' }],
    });
    const core = composeConfigSchema([]);
    const composed = composeConfigSchema([tail, demo]);
    assert.deepEqual(
      Object.keys(composed),
      Object.keys(composeConfigSchema([demo])),
      'the same tables, in the same order',
    );
    const coreKeys = Object.keys(core.gateway?.keys ?? {});
    assert.deepEqual(Object.keys(composed.gateway?.keys ?? {}), [...coreKeys, 'demo_limit', 'demo_on']);
    assert.equal(composed.gateway?.doc, core.gateway?.doc, "the core section's own doc");
    assert.match(composed.app_api?.keys.enabled?.doc ?? '', / gateway\.demo_on and demo\.enabled need it\.$/);
    assert.throws(
      () => composeConfigSchema([{ ...tail, name: 'nowhere' }]),
      /config section nowhere adds to no core section of that name/,
    );
    assert.throws(
      () => composeConfigSchema([{ ...tail, spec: section('x', { port: int(1, 1, 2, 'clash') }) }]),
      /config key gateway\.port is the core's/,
    );
  });

  it('indexes the registered modules’ keys, environment names and rules like the core’s', () => {
    assert.ok(Object.hasOwn(configSchema(), 'conference'));
    assert.ok(configKeys().some((k) => k.path === 'conference.signal_ttl_ms'));
    assert.equal(keyByEnvVar('TORANA_CONFERENCE_ENABLED')?.path, 'conference.enabled');
    assert.ok(configNeeds().some((r) => r.key === 'conference.enabled' && r.needs === 'app_api.enabled'));
    assert.equal(configFollows().get('conference.enabled'), 'app_api.enabled');
    // The operator passkeys' keys end the core's `[operator]` (src/modules/operator/config.ts).
    assert.equal(
      keyByEnvVar('TORANA_OPERATOR_PASSKEY_BOOTSTRAP_SECRET')?.path,
      'operator.passkey_bootstrap_secret',
    );
    assert.equal(
      configKeys()
        .filter((k) => k.section === 'operator')
        .at(-1)?.key,
      'passkey_challenges_max',
    );
  });

  it('seals the list once the schema was read: a late section throws, naming it', () => {
    configSchema();
    assert.ok(moduleConfigSections().some((s) => s.name === 'conference'));
    assert.throws(
      () => addConfigSections([demo]),
      /config sections demo added after the configuration schema/,
    );
  });
});
