import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
// The registry adds the modules' sections to the schema (sections.ts): they are checked like the core's.
import '../modules/registry.js';
import { renderConfigDocsTable, renderModuleConfigDocs } from './docs.js';
import { configKeys } from './keys.js';
import { CONFIG_RULES, configNeeds } from './rules.js';
import { CORE_CONFIG_SCHEMA } from './schema.js';
import { moduleConfigSections } from './sections.js';

const DOC_PATH = new URL('../../docs/configuration.md', import.meta.url);

describe('docs/configuration.md', () => {
  const doc = readFileSync(DOC_PATH, 'utf8');

  it('contains exactly the core table generated from CORE_CONFIG_SCHEMA', (t) => {
    const table = renderConfigDocsTable();
    if (!doc.includes(table)) {
      t.diagnostic('docs/configuration.md is out of date; replace its key table with:');
      console.log(`\n${table}`);
    }
    assert.ok(
      doc.includes(table),
      'docs/configuration.md does not contain the generated key table (printed above)',
    );
  });

  it('generates one row per key, naming type and default', () => {
    const rows = renderConfigDocsTable().trimEnd().split('\n').slice(2);
    // The core's own keys (a module's keys written in a core section are the module's block's).
    const core = configKeys().filter(
      (k) =>
        Object.hasOwn(CORE_CONFIG_SCHEMA, k.section) &&
        Object.hasOwn(CORE_CONFIG_SCHEMA[k.section as keyof typeof CORE_CONFIG_SCHEMA].keys, k.key),
    );
    assert.equal(rows.length, core.length);
    const cells = (r: string | undefined) => (r ?? '').split(' | ').map((c) => c.replace(/^\| /, '').trim());
    const port = rows[core.findIndex((k) => k.path === 'gateway.port')];
    assert.deepEqual(cells(port).slice(0, 3), ['`gateway.port`', 'integer 0..65535', '`8080`']);
    const profile = rows.find((r) => r.startsWith('| `telemetry.profile` '));
    assert.deepEqual(cells(profile).slice(1, 3), [
      'one of disabled, operator, extended, developer, full',
      '`"operator"`',
    ]);
    assert.ok(rows.some((r) => r.includes('`65536` (64 KiB)')));
    assert.ok(rows.some((r) => r.includes('`86400000` (24 h)')));
    // Column widths are counted in UTF-16 units, which matches the formatter only for ASCII text.
    assert.match(renderConfigDocsTable(), /^[\x20-\x7e\n]*$/);
    assert.equal(
      new Set(
        renderConfigDocsTable()
          .trimEnd()
          .split('\n')
          .map((r) => r.length),
      ).size,
      1,
    );
  });

  it('lists every pair of keys that must agree', () => {
    for (const r of CONFIG_RULES)
      assert.ok(doc.includes(`\`${r.key} <= ${r.limit}\``), `${r.key} <= ${r.limit}`);
    for (const r of configNeeds())
      assert.ok(doc.includes(`\`${r.key}\` needs \`${r.needs}\``), `${r.key} needs ${r.needs}`);
  });

  it('shows each module section in the generated block, with its keys and switches', () => {
    const block = /<!-- modules:config-sections -->\n([\s\S]*?)<!-- \/modules:config-sections -->/.exec(doc);
    assert.ok(block !== null, 'docs/configuration.md has the modules:config-sections block');
    const modules = moduleConfigSections();
    assert.ok(modules.length > 0, 'the registry added module sections');
    for (const m of modules) {
      const text = renderModuleConfigDocs(m);
      assert.ok(block[1]!.includes(text), `the block shows [${m.name}] as its declaration renders it`);
      const rows = text.split('\n').filter((l) => l.startsWith('| `'));
      assert.equal(rows.length, Object.keys(m.spec.keys).length, `one row per key of [${m.name}]`);
      for (const key of Object.keys(m.spec.keys))
        assert.ok(
          !renderConfigDocsTable().includes(`| \`${m.name}.${key}\``),
          `${m.name}.${key} is not in the core table`,
        );
    }
    assert.match(block[1]!, /`conference\.enabled` needs `app_api\.enabled`/);
    assert.match(block[1]!, /Left unset, `conference\.enabled` takes the value of `app_api\.enabled`/);
  });
});
