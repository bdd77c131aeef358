import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { renderConfigDocsTable } from './docs.js';
import { CONFIG_KEYS } from './keys.js';
import { CONFIG_NEEDS, CONFIG_RULES } from './rules.js';

const DOC_PATH = new URL('../../docs/configuration.md', import.meta.url);

describe('docs/configuration.md', () => {
  const doc = readFileSync(DOC_PATH, 'utf8');

  it('contains exactly the table generated from CONFIG_SCHEMA', (t) => {
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
    assert.equal(rows.length, CONFIG_KEYS.length);
    const cells = (r: string | undefined) => (r ?? '').split(' | ').map((c) => c.replace(/^\| /, '').trim());
    const port = rows[CONFIG_KEYS.findIndex((k) => k.path === 'gateway.port')];
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
    for (const r of CONFIG_NEEDS)
      assert.ok(doc.includes(`\`${r.key}\` needs \`${r.needs}\``), `${r.key} needs ${r.needs}`);
  });
});
