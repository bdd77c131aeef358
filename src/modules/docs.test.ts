import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { LedgerModule } from './descriptor.js';
import { MODULE_DOC_SECTIONS, moduleDocPages, renderModuleDocPage, renderModuleDocSection } from './docs.js';
import { LEDGER_MODULES } from './load.js';

const ROOT = new URL('../../', import.meta.url);

const fake = (name: string, rows: readonly string[]): LedgerModule => ({
  name,
  instructions: {},
  tables: [],
  schemaTypes: [],
  events: [],
  rejections: [],
  docs: `docs/${name}.md`,
  docSections: { 'app-api-id-names': rows },
});

describe('module sections of the shared docs pages', () => {
  it('every page holds exactly the sections its modules’ descriptors give', () => {
    for (const page of moduleDocPages(LEDGER_MODULES)) {
      const text = readFileSync(new URL(page, ROOT), 'utf8');
      assert.equal(
        renderModuleDocPage(page, text, LEDGER_MODULES),
        text,
        `${page} is out of date: run node --conditions=torana-source --import tsx src/modules/docs.ts`,
      );
    }
  });

  it('a section is its head and every module’s entries in registry order, empty without entries', () => {
    const modules = [fake('a', ['| a1 | x |', '| a2 | y |']), fake('b', []), fake('c', ['| c1 | z |'])];
    assert.equal(
      renderModuleDocSection('app-api-id-names', modules),
      '| where | parameters that take a name in place of an id |\n| --- | --- |\n| a1 | x |\n| a2 | y |\n| c1 | z |',
    );
    assert.equal(renderModuleDocSection('app-api-families', modules), '');
  });

  it('rewrites only between the markers, and refuses a page without its section', () => {
    const page = MODULE_DOC_SECTIONS['app-api-id-names'].page;
    const sections = Object.keys(MODULE_DOC_SECTIONS).filter(
      (s) => MODULE_DOC_SECTIONS[s as keyof typeof MODULE_DOC_SECTIONS].page === page,
    );
    const text = `before\n${sections.map((s) => `<!-- modules:${s} -->\nhand text\n<!-- /modules:${s} -->`).join('\nmid\n')}\nafter\n`;
    const out = renderModuleDocPage(page, text, [fake('a', ['| a1 | x |'])]);
    assert.ok(!out.includes('hand text'), out);
    assert.ok(out.startsWith('before\n') && out.endsWith('\nafter\n') && out.includes('\nmid\n'));
    assert.ok(out.includes('<!-- modules:app-api-id-names -->\n| where |'));
    assert.throws(() => renderModuleDocPage(page, 'no markers', []), /has 0 modules:/);
  });

  it('a section a module hosts sits on its page, is filled by every module, and is placed once', () => {
    const page = `docs/${'host'}.md`; // a made-up page (built, so that it reads as no citation)
    const host: LedgerModule = {
      ...fake('host', []),
      hostsDocSections: {
        'dashboard-additions': { page, head: ['| m | adds |'], join: '\n' },
      },
    };
    const guest: LedgerModule = {
      ...fake('guest', []),
      docSections: { 'dashboard-additions': ['| guest | x |'] },
    };
    assert.deepEqual(moduleDocPages([host, guest]).includes(page), true);
    assert.equal(moduleDocPages([guest]).includes(page), false, 'no host, no section');
    const text = 'a\n<!-- modules:dashboard-additions -->\nold\n<!-- /modules:dashboard-additions -->\nb\n';
    assert.equal(
      renderModuleDocPage(page, text, [host, guest]),
      'a\n<!-- modules:dashboard-additions -->\n| m | adds |\n| guest | x |\n<!-- /modules:dashboard-additions -->\nb\n',
    );
    assert.throws(() => renderModuleDocSection('dashboard-additions', [guest]), /placed by no module/);
    assert.throws(() => moduleDocPages([host, { ...host, name: 'again' }]), /placed twice/);
  });

  it('the multisig and controls rows reach the pages from their descriptors', () => {
    const appApi = readFileSync(new URL('docs/app-api.md', ROOT), 'utf8');
    assert.match(
      appApi,
      /<!-- modules:app-api-families -->\n[\s\S]*\| `multisig` \|[\s\S]*\| `controls` \|[\s\S]*<!-- \/modules:app-api-families -->/,
    );
    const security = readFileSync(new URL('docs/security.md', ROOT), 'utf8');
    assert.match(
      security,
      /<!-- modules:security-writes -->\n[\s\S]*\*\*Multisig proposal spam\.\*\*[\s\S]*<!-- \/modules:security-writes -->/,
    );
  });
});
