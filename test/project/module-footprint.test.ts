// How far each ledger feature reaches outside its folder (scripts/module-footprint.mjs defines the count:
// files under src/ (tests excluded), docs/ and scripts/ outside the feature's folder, less its own docs
// page, that import from its folder or match its name). A migrated module touches at most 3 such files
// (its registry line, the core's tag tables, the docs index). Features not there yet are listed below, and
// their counts printed: an honest list that must shrink — move a feature to MIGRATED when it reaches 3.
// A feature whose move has begun also has a ceiling: lower it when its count drops, never raise it to
// let a change in. A module that declares a dependency (its registry entry's `dependsOn`) is left out of
// the count of the module it builds on, and the subscriptions pattern leaves out the event streams' words
// (both rules: scripts/module-footprint.mjs); the tests below show each rule both ways.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import {
  CONSENSUS_CONFERENCE_TERMS,
  CORE_CONFIG_DASHBOARD_TEXTS,
  CORE_CONFIG_OPERATOR_TEXTS,
  coreImportsOfModules,
  countedFiles,
  dependents,
  extenders,
  FEATURES,
  footprint,
  leftOut,
  moduleSections,
  namesFeature,
  SERVING_ORDER_SECTION,
  // @ts-expect-error: a plain ES module script without types
} from '../../scripts/module-footprint.mjs';
import { configSchema } from '../../src/config/schema.js';
import { docSectionPlaces } from '../../src/modules/docs.js';
import { LEDGER_MODULES } from '../../src/modules/load.js';
import LEDGER_MODULE_ENTRIES from '../../src/modules/registry.js';

/** Modules whose every piece is in their folder. */
const MIGRATED: readonly string[] = [
  'multisig',
  'controls',
  'triggers',
  'subscriptions',
  'aliases',
  'rwas',
  'content',
  'conference',
  'connect',
  'repo',
  'webhooks',
  'iso20022',
  'dashboard',
  'operator',
  'history',
  'telemetry',
  'explorer',
];

/** Not yet migrated: what is missing, and for a move under way the ceiling of its footprint. */
const NOT_YET_MIGRATED: Readonly<Record<string, { ceiling?: number; missing: string }>> = {};

/** The only files outside src/modules/ that reach into a module folder: the SDK's public surface. */
const SDK_ROOTS = /^src\/sdk\/(?:index|instructions)\.ts → src\/modules\/[a-z-]+\/sdk\.js$/;

describe('module footprint', () => {
  const files: string[] = countedFiles();

  it('every feature is listed once, as migrated or not yet migrated', () => {
    const listed = [...MIGRATED, ...Object.keys(NOT_YET_MIGRATED)].sort();
    assert.deepEqual(listed, Object.keys(FEATURES).sort());
  });

  it('counts imports into the folder and name mentions, never the folder itself or its docs page', () => {
    const hits = new Map<string, string>(
      footprint('triggers', files).map((h: { file: string; how: string }) => [h.file, h.how]),
    );
    assert.equal(hits.get('src/modules/registry.ts'), 'import');
    assert.equal(hits.get('src/model/tags.ts'), 'name');
    assert.ok(!hits.has('src/model/instructions.ts'), 'the module declares its instructions in its wire.ts');
    assert.ok(![...hits.keys()].some((f) => f.startsWith('src/modules/triggers/')));
    assert.ok(!hits.has('docs/triggers.md'));
    assert.ok(!hits.has('src/consensus/due-wake.ts'), 'consensus sees only the generic due-work hook');
    assert.ok(!hits.has('src/state/module-host.ts'), 'the core schedules runs through a neutral port');
    assert.ok(!hits.has('src/state/README.md'), 'its tables are declared in its wire.ts');
  });

  it('a generated module section of a shared page is not a mention; every one is rendered by src/modules/docs.ts', () => {
    const root = new URL('../../', import.meta.url);
    const found = new Map<string, string[]>();
    for (const file of files)
      for (const name of moduleSections(readFileSync(new URL(file, root), 'utf8')) as string[])
        found.set(name, [...(found.get(name) ?? []), file]);
    const expected = Object.entries(docSectionPlaces(LEDGER_MODULES)).map(([name, place]) => [
      name,
      [place?.page],
    ]);
    assert.deepEqual([...found.entries()].sort(), expected.sort());
    const appApi = readFileSync(new URL('docs/app-api.md', root), 'utf8');
    assert.match(appApi, /multisig/i, 'the page shows the module’s rows');
    const hits = footprint('multisig', files).map((h: { file: string }) => h.file);
    assert.ok(!hits.includes('docs/app-api.md'), 'its rows there come from its descriptor');
    assert.ok(hits.includes('docs/design/modules.md'), 'a hand mention outside a section still counts');
  });

  it('the generated serving-order table is not a mention; only docs/design/modules.md holds one', () => {
    const root = new URL('../../', import.meta.url);
    const holders = files.filter((file) =>
      new RegExp(SERVING_ORDER_SECTION.source).test(readFileSync(new URL(file, root), 'utf8')),
    );
    assert.deepEqual(holders, ['docs/design/modules.md']);
    const table = '<!-- serving-order -->\n| 400 | `telemetry` | no |\n<!-- /serving-order -->';
    assert.equal(namesFeature('telemetry', table), false, 'a row of the served table');
    assert.equal(
      namesFeature('telemetry', `${table}\nthe telemetry family`),
      true,
      'a hand mention beside it',
    );
  });

  it('a migrated module touches at most 3 files outside its folder', () => {
    for (const name of MIGRATED) {
      const hits = footprint(name, files);
      assert.ok(hits.length <= 3, `${name}: ${hits.map((h: { file: string }) => h.file).join(', ')}`);
    }
  });

  it('a feature not yet migrated is listed with its count; one under way stays within its ceiling', () => {
    for (const [name, { ceiling, missing }] of Object.entries(NOT_YET_MIGRATED)) {
      const n = footprint(name, files).length;
      console.log(
        `${name}: ${n} files outside its folder (ceiling ${ceiling ?? 'none'}); missing: ${missing}`,
      );
      if (ceiling !== undefined)
        assert.ok(
          n <= ceiling,
          `${name} reaches ${n} files outside its folder, above its ceiling ${ceiling}`,
        );
    }
  });

  it('the core imports no module folder (only the SDK surface re-exports module SDK files)', () => {
    const edges: string[] = coreImportsOfModules(files);
    assert.deepEqual(
      edges.filter((e) => !SDK_ROOTS.test(e)),
      [],
    );
  });

  it('no core layer names transfer controls: value moves and removal cascades see only generic hooks', () => {
    const core =
      /^src\/(?:consensus|pipeline|gateway|node)\/|^src\/state\/(?:executor|handlers|module-host|exec-value|exec-unregister|exec-assets|world-state)\.ts$|^src\/sdk\/client\.ts$|^src\/cli\/main\.ts$/;
    const named = footprint('controls', files)
      .map((h: { file: string }) => h.file)
      .filter((f: string) => core.test(f));
    assert.deepEqual(named, []);
  });

  it('no core layer names aliases: routes resolve names in place of ids through the generic resolver', () => {
    const core =
      /^src\/(?:consensus|pipeline|accounts|subscriptions|gateway|webhooks|modules\/history|modules\/explorer)\/|^src\/state\/(?:executor|handlers|module-host|exec-unregister)\.ts$|^src\/sdk\/client\.ts$|^src\/cli\/(?:main|client-actions|settings|id-args|id-names)\.ts$/;
    const named = footprint('aliases', files)
      .map((h: { file: string }) => h.file)
      .filter((f: string) => core.test(f));
    assert.deepEqual(named, []);
  });

  it('the dashboard, the model and the other modules reach aliases only through neutral ports', () => {
    const named = new Set(footprint('aliases', files).map((h: { file: string }) => h.file));
    const neutral = [
      'src/modules/dashboard/ui/accounts.ts',
      'src/modules/dashboard/ui/search.ts',
      'src/modules/dashboard/README.md',
      'src/modules/conference/signal-routes.ts',
      'src/modules/conference/read-port.ts',
      'src/modules/controls/routes.ts',
      'src/modules/multisig/detached.ts',
      'docs/app-api.md',
      'docs/webhooks.md',
    ];
    assert.deepEqual(
      neutral.filter((f) => named.has(f)),
      [],
    );
  });

  it('no core layer names triggers: the core sees only the due-work and scheduled-run hooks', () => {
    const core =
      /^src\/(?:consensus|pipeline|gateway)\/|^src\/state\/[^/]+$|^src\/model\/(?!tags\.ts$)[^/]+$|^src\/sdk\/client\.ts$|^src\/cli\/main\.ts$/;
    const named = footprint('triggers', files)
      .map((h: { file: string }) => h.file)
      .filter((f: string) => core.test(f));
    assert.deepEqual(named, []);
  });

  it('no core layer names subscriptions: the core schedules their billing through the neutral port', () => {
    const core =
      /^src\/(?:consensus|pipeline|gateway|node|state|accounts)\/|^src\/model\/(?!tags\.ts$)[^/]+$|^src\/sdk\/(?:client|index|instructions)\.ts$|^src\/cli\/main\.ts$/;
    const named = footprint('subscriptions', files)
      .map((h: { file: string }) => h.file)
      .filter((f: string) => core.test(f));
    assert.deepEqual(named, []);
  });

  it('the modules that add to the dashboard (a dashboard.ts of their own) are left out of its count; no other', () => {
    const root = new URL('../../', import.meta.url);
    assert.deepEqual(extenders('dashboard'), [
      'src/modules/aliases',
      'src/modules/conference',
      'src/modules/explorer',
      'src/modules/iso20022',
      'src/modules/operator',
      'src/modules/telemetry',
    ]);
    // An extender's folder and its docs page (which says what its addition shows).
    assert.deepEqual(leftOut('dashboard'), [
      'src/modules/dashboard',
      'docs/dashboard.md',
      'src/modules/aliases',
      'docs/data-model.md',
      'src/modules/conference',
      'docs/conference.md',
      'src/modules/explorer',
      'docs/explorer.md',
      'src/modules/iso20022',
      'docs/iso20022.md',
      'src/modules/operator',
      'docs/operator.md',
      'src/modules/telemetry',
      'docs/telemetry.md',
    ]);
    assert.deepEqual(extenders('triggers'), [], 'a feature without a convention file has none');
    const named = files.filter(
      (f) =>
        /^src\/modules\/(?:aliases|conference)\//.test(f) &&
        namesFeature('dashboard', readFileSync(new URL(f, root), 'utf8')),
    );
    assert.ok(named.length >= 4, 'their dashboard.ts, README and docs entries do name it');
    const hits = footprint('dashboard', files).map((h: { file: string }) => h.file);
    for (const f of named) assert.ok(!hits.includes(f), `${f} is left out of the dashboard count`);
    assert.ok(!leftOut('dashboard').includes('src/modules/webhooks'), 'a module with no dashboard.ts counts');
  });

  it('the dashboard’s pattern: its own words count; its core config section’s keys and fixed texts, and other senses, do not', () => {
    // The section stays core: it sits between [telemetry] and [operator] in the generated configuration,
    // and the dashboard's registry entry declares no section of its own.
    const sections = Object.keys(configSchema());
    assert.equal(sections[sections.indexOf('dashboard') - 1], 'telemetry');
    assert.equal(LEDGER_MODULE_ENTRIES.find((e) => e.name === 'dashboard')?.config, undefined);
    const toml = readFileSync(new URL('../fixtures/config/default-config.toml', import.meta.url), 'utf8');
    for (const text of CORE_CONFIG_DASHBOARD_TEXTS as string[])
      assert.ok(toml.includes(text), `${text} is a text of the generated configuration`);
    assert.equal(namesFeature('dashboard', 'set dashboard.enabled = false, or dashboard.connect_src'), false);
    assert.equal(namesFeature('dashboard', '[dashboard]\nenabled = true'), false);
    assert.equal(
      namesFeature('dashboard', 'import deploy/grafana/torana-dashboard.json into Grafana'),
      false,
    );
    assert.equal(namesFeature('dashboard', 'for dashboards and scripts that call many routes'), false);
    assert.equal(namesFeature('dashboard', 'the web dashboard shows the bridge'), true);
    assert.equal(namesFeature('dashboard', 'dashboard.enabled, and the dashboard'), true);
    assert.equal(namesFeature('dashboard', "import { Page } from 'torana:dashboard';"), true);
  });

  it('the operator pattern: the sign-in module’s words count; operator keys, routes, the session store and its fixed config text do not', () => {
    const toml = readFileSync(new URL('../fixtures/config/default-config.toml', import.meta.url), 'utf8');
    for (const text of CORE_CONFIG_OPERATOR_TEXTS as string[])
      assert.ok(toml.includes(text), `${text} is a text of the generated configuration`);
    for (const core of [
      'operator.public_keys and operator routes (x-ledger-operator-signature)',
      'OperatorSessions verifies operator_session_unknown; gateway/operator-sessions.ts',
      'Session events kept for GET /v1/operator/sessions/audit.',
    ])
      assert.equal(namesFeature('operator', core), false, core);
    for (const own of [
      'GET /v1/operator/sessions/audit',
      'POST /v1/operator/session/challenge',
      'operator.passkey_rp_id',
      'client.operatorSignIn(key)',
      'src/modules/operator/routes.ts',
    ])
      assert.equal(namesFeature('operator', own), true, own);
    const root = new URL('../../', import.meta.url);
    assert.match(
      readFileSync(new URL('src/config/schema.ts', root), 'utf8'),
      /\/v1\/operator\/sessions\/audit/,
    );
    const hits = footprint('operator', files).map((h: { file: string }) => h.file);
    assert.ok(!hits.includes('src/config/schema.ts'), 'its one mention is the fixed config text');
  });

  it('a module that builds on another is left out of that one’s count, exactly as the registry declares', () => {
    for (const name of Object.keys(FEATURES)) {
      const entry = LEDGER_MODULE_ENTRIES.find((e) => e.name === name);
      assert.deepEqual(
        FEATURES[name].dependsOn ?? [],
        entry?.dependsOn ?? [],
        `${name}: as its registry entry`,
      );
    }
    assert.deepEqual(dependents('triggers'), ['subscriptions', 'repo']);
    assert.deepEqual(dependents('aliases'), ['multisig'], 'multisig onboarding adds RegisterAccountAlias');
    const root = new URL('../../', import.meta.url);
    const dependent = files.filter(
      (f) =>
        (f.startsWith('src/modules/subscriptions/') || f === 'docs/subscriptions.md') &&
        namesFeature('triggers', readFileSync(new URL(f, root), 'utf8')),
    );
    assert.ok(dependent.length >= 3, 'the subscriptions module does name triggers (its billing runs)');
    const hits = footprint('triggers', files).map((h: { file: string }) => h.file);
    for (const f of dependent) assert.ok(!hits.includes(f), `${f} is left out of the triggers count`);
    assert.deepEqual(leftOut('triggers'), [
      'src/modules/triggers',
      'docs/triggers.md',
      'src/modules/subscriptions',
      'docs/subscriptions.md',
      'src/modules/repo',
      'docs/repo.md',
    ]);
    assert.deepEqual(
      leftOut('subscriptions'),
      ['src/modules/subscriptions', 'docs/subscriptions.md'],
      'the module built on is not left out of its dependent’s count',
    );
  });

  it('the subscriptions pattern counts the billing feature, not the event streams’ subscribers', () => {
    assert.ok(
      !namesFeature('subscriptions', 'one stream subscription per connection; a slow subscriber lags'),
    );
    assert.ok(
      !namesFeature('subscriptions', 'EventSubscription, wsSubscriptionsMax, subscribe(), unsubscribe'),
    );
    assert.ok(!namesFeature('subscriptions', 'streams.subscriptions_per_connection_max'));
    assert.ok(namesFeature('subscriptions', 'a subscriber pays its subscription plan'));
    assert.ok(namesFeature('subscriptions', 'the billing run `$sub:alice-pro`'));
    assert.ok(namesFeature('subscriptions', 'a WebSocket event subscription; ChargeSubscription'));
    const root = new URL('../../', import.meta.url);
    const streams = ['src/gateway/ws-events.ts', 'src/gateway/sse-session.ts', 'src/config/schema.ts'];
    const hits = footprint('subscriptions', files).map((h: { file: string }) => h.file);
    for (const f of streams) {
      assert.match(readFileSync(new URL(f, root), 'utf8'), /subscri/i, `${f} uses the streams’ words`);
      assert.ok(!hits.includes(f), `${f} is not counted`);
    }
  });

  it('the aliases pattern counts the feature’s names, not the second URL of the OpenAPI document', () => {
    assert.ok(!namesFeature('aliases', "summary: 'OpenAPI document (alias)'"));
    assert.ok(namesFeature('aliases', 'OpenAPI document (alias); account id or alias'));
    assert.ok(namesFeature('aliases', 'RegisterAccountAlias'));
    assert.ok(namesFeature('aliases', 'the document alias'));
    const root = new URL('../../', import.meta.url);
    assert.match(readFileSync(new URL('src/gateway/openapi.ts', root), 'utf8'), /\(alias\)/);
    const hits = footprint('aliases', files).map((h: { file: string }) => h.file);
    assert.ok(!hits.includes('src/gateway/openapi.ts'), 'its one "alias" is the URL alias');
  });

  it('route descriptions word names through the installed naming: no route file names aliases', () => {
    const hits = footprint('aliases', files).map((h: { file: string }) => h.file);
    for (const f of [
      'src/modules/explorer/routes-entities.ts',
      'src/modules/history/params.ts',
      'src/gateway/routes/streams.ts',
      'src/modules/webhooks/routes.ts',
      'src/gateway/id-name-words.ts',
    ])
      assert.ok(!hits.includes(f), f);
  });

  it('no core layer names webhooks: the node, gateway, CLI and SDK find the module through the registry', () => {
    const core =
      /^src\/(?:consensus|pipeline|gateway|storage|util|sdk|cli|telemetry)\/|^src\/node\/(?!init\.ts$)|^src\/modules\/(?:load|commands|descriptor|docs)\.ts$/;
    const named = footprint('webhooks', files)
      .map((h: { file: string }) => h.file)
      .filter((f: string) => core.test(f));
    assert.deepEqual(named, []);
  });

  it('no core file names the ISO 20022 bridge: config, node, gateway, CLI, dashboard and SDK find it through the registry', () => {
    // Its name and its message families count; other senses of the letters do not.
    assert.ok(namesFeature('iso20022', 'TORANA_ISO20022_ENABLED'));
    assert.ok(namesFeature('iso20022', 'a camt.053 statement'));
    assert.ok(namesFeature('iso20022', 'pain.001 from a debtor; pacs.008'));
    assert.ok(!namesFeature('iso20022', 'painting; ISO 8601 dates; the bridge account'));
    const hits = footprint('iso20022', files).map((h: { file: string }) => h.file);
    const core = hits.filter((f: string) => f.startsWith('src/') && f !== 'src/modules/registry.ts');
    assert.deepEqual(core, []);
  });

  it('no core composition file names the explorer or the history: node, SDK client and CLI find them through the registry', () => {
    const core =
      /^src\/node\/(?:families|serve)\.ts$|^src\/sdk\/(?:client|index|instructions)\.ts$|^src\/cli\/(?:main|client-commands)\.ts$|^src\/modules\/(?:load|commands|descriptor)\.ts$/;
    for (const name of ['explorer', 'history']) {
      const named = footprint(name, files)
        .map((h: { file: string }) => h.file)
        .filter((f: string) => core.test(f));
      assert.deepEqual(named, [], name);
    }
  });

  it('the explorer pattern leaves out the rwas module’s routes under /v1/explorer/, served with no explorer module', async () => {
    // The rwas module builds its family alone, over its own tables, and declares no dependency.
    const { rwasModule } = await import('../../src/modules/rwas/descriptor.js');
    assert.equal(LEDGER_MODULE_ENTRIES.find((e) => e.name === 'rwas')?.dependsOn, undefined);
    const family = (await rwasModule.routes?.({ state: {}, deps: { limits: {} } } as never)) as
      | { routes: (app: unknown) => { url: string; operationId?: string }[] }
      | undefined;
    const urls = family?.routes(undefined).map((r) => `${r.url} ${r.operationId}`);
    assert.ok(urls?.includes('/v1/explorer/rwas explorerListRwas'), String(urls));
    assert.ok(urls?.includes('/v1/explorer/rwas/:rwa_id explorerGetRwa'), String(urls));
    for (const other of [
      "url: '/v1/explorer/rwas', operationId: 'explorerListRwas'",
      'GET /v1/explorer/rwas/{rwa_id}, /v1/explorer/rwas/ + id',
      "struct('ExplorerRwa', {}), struct('ExplorerRwaList', {}), struct('ExplorerRwaPagination', {}), struct('ExplorerRwaHolds', {})",
      "operationId: 'explorerGetRwa'",
    ])
      assert.ok(!namesFeature('explorer', other), other);
    for (const own of [
      '/v1/explorer/rwasx',
      '/v1/explorer/blocks',
      'ExplorerRwaView',
      "struct('ExplorerBlockList', {})",
      'the explorer’s lot pages',
      "'explorerListBlocks'",
    ])
      assert.ok(namesFeature('explorer', own), own);
    const hits = footprint('explorer', files).map((h: { file: string }) => h.file);
    for (const f of [
      'src/modules/rwas/routes.ts',
      'src/modules/rwas/views.ts',
      'src/modules/rwas/sdk.ts',
      'src/modules/rwas/docs.ts',
      'docs/rwas.md',
    ])
      assert.ok(!hits.includes(f), f);
  });

  it('the history pattern is the feature’s own names: the core’s other histories never count', () => {
    for (const text of [
      'GET /v1/transactions/history',
      'torana tx history --of bob',
      'the transaction history routes',
      'const page: HistoryPage = await historyPage(get, path)',
      'history.scan_entries_max',
      'src/modules/history/routes.ts',
    ])
      assert.ok(namesFeature('history', text), text);
    for (const text of [
      'streams.event_history_max',
      '...historyRoutes(d)',
      'snap.validatorSetHistory',
      'seedRosterHistory',
      'decodeHistoryEntries(bytes): HistoryEntry[]',
      'accountHistory(entries, account, offset, limit)',
      'a validator unregistered at once (its history stays)',
    ])
      assert.ok(!namesFeature('history', text), text);
    const hits = footprint('history', files).map((h: { file: string }) => h.file);
    for (const f of [
      'src/gateway/routes/consensus-history.ts',
      'src/pipeline/history-entries.ts',
      'src/pipeline/account-history.ts',
      'src/pipeline/ledger.ts',
      'src/gateway/routes/streams.ts',
    ])
      assert.ok(!hits.includes(f), f);
  });

  it('no core layer names multisig: the executor, the pipeline and the node see only generic hooks', () => {
    const core =
      /^src\/(?:consensus|pipeline|gateway|node)\/|^src\/state\/(?:executor|exec-context|exec-unregister|handlers|module-host)\.ts$|^src\/sdk\/client\.ts$|^src\/cli\/main\.ts$/;
    const named = footprint('multisig', files)
      .map((h: { file: string }) => h.file)
      .filter((f: string) => core.test(f));
    assert.deepEqual(named, []);
  });

  it('the conference pattern leaves out only the core’s fixed consensus-data strings', () => {
    assert.ok(!namesFeature('conference', "fail('conference_native_asset_not_configured', why)"));
    assert.ok(
      !namesFeature(
        'conference',
        "'the shielded_pool_account or conference_entry_fee parameter is missing or invalid'",
      ),
    );
    assert.ok(namesFeature('conference', 'conference_native_asset_not_configured; CreateConference'));
    assert.ok(namesFeature('conference', 'the conference_entry_fee parameter'));
    assert.ok(namesFeature('conference', 'conference.enabled'));
    const root = new URL('../../', import.meta.url);
    const core = ['src/model/rejections.ts', 'src/state/exec-native-asset.ts'];
    const hits = footprint('conference', files).map((h: { file: string }) => h.file);
    for (const f of core) {
      const text = readFileSync(new URL(f, root), 'utf8');
      assert.match(text, new RegExp(CONSENSUS_CONFERENCE_TERMS.source, 'i'), `${f} holds a fixed string`);
      assert.ok(!hits.includes(f), `${f} is not counted`);
    }
    for (const f of [
      'src/config/schema.ts',
      'src/config/rules.ts',
      'docs/configuration.md',
      'src/sdk/README.md',
    ])
      assert.ok(!hits.includes(f), `${f}: the config section and the SDK prover are in the module`);
  });

  it('the telemetry pattern counts the module, not the telemetry profiles, vote telemetry or relay telemetry', () => {
    for (const other of [
      "profile: config.telemetry.profile, gatewayError('telemetry_profile_restricted')",
      'TelemetryProfile, TELEMETRY_PROFILES, the telemetry profile of this node, telemetry-profile gating',
      'a `status` route of the telemetry\n// profile',
      "url: '/metrics', tags: ['telemetry'],",
      "'/v1/consensus/telemetry', 'getConsensusTelemetry', ConsensusTelemetry, TelemetryView, voteTelemetry(d)",
      'consensus\n *   telemetry; Telemetry of the round in progress',
      'relay telemetry, conference.relay_telemetry, opts.relayTelemetry, TELEMETRY_NOTE, relay\ntelemetry',
    ])
      assert.ok(!namesFeature('telemetry', other), other);
    for (const own of [
      '/v1/telemetry/peers-info',
      'telemetry.gossip_interval_ms',
      "peers' telemetry reports",
      "servedAfter: 'telemetry'",
      'torana telemetry peers',
      "tags: ['telemetry', 'x']",
    ])
      assert.ok(namesFeature('telemetry', own), own);
    const hits = footprint('telemetry', files).map((h: { file: string }) => h.file);
    for (const f of [
      'src/gateway/profiles.ts',
      'src/gateway/route-table.ts',
      'src/gateway/metrics.ts',
      'src/gateway/routes/consensus-round.ts',
      'src/modules/conference/routes.ts',
      'src/node/bft.ts',
      'src/node/families.ts',
      'src/cli/main.ts',
      'src/sdk/index.ts',
    ])
      assert.ok(!hits.includes(f), f);
  });
});
