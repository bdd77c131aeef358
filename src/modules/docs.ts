// The shared documentation pages' module sections: the rows a ledger module adds to a page every feature
// shares (the application route families, the routes that take names in place of ids, the security
// properties of writing to the ledger) come from
// the module's own descriptor (`docSections`), so the page never names a module by hand. Each section
// sits between `<!-- modules:NAME -->` and `<!-- /modules:NAME -->` in its page; this file renders it from
// the descriptors in registry order. src/modules/docs.test.ts fails when a page differs from what the
// descriptors give; rewrite the pages with
//
//   node --conditions=torana-source --import tsx src/modules/docs.ts
//
// scripts/module-footprint.mjs does not count a mention inside such a section: it is generated from the
// registry, not written by hand.

import { readFileSync, writeFileSync } from 'node:fs';
import type { CoreDocSection, DocSectionPlace, LedgerModule, ModuleDocSection } from './descriptor.js';

/** Where each section of the core's shared pages lives and how its entries are laid out. */
export const MODULE_DOC_SECTIONS: Readonly<Record<CoreDocSection, DocSectionPlace>> = {
  'app-api-families': {
    page: 'docs/app-api.md',
    head: ['| family | routes | needs besides `app_api.enabled` |', '| --- | --- | --- |'],
    join: '\n',
  },
  'app-api-always': {
    page: 'docs/app-api.md',
    head: ['| family | routes |', '| --- | --- |'],
    join: '\n',
  },
  'app-api-names': { page: 'docs/app-api.md', head: [], join: '\n\n' },
  'app-api-id-names': {
    page: 'docs/app-api.md',
    head: ['| where | parameters that take a name in place of an id |', '| --- | --- |'],
    join: '\n',
  },
  'security-writes': { page: 'docs/security.md', head: [], join: '\n\n' },
  'errors-routes': { page: 'docs/errors.md', head: [], join: '\n\n' },
  'errors-cli': {
    page: 'docs/errors.md',
    head: ['| code | meaning |', '| --- | --- |'],
    join: '\n',
  },
  'data-model-ids': {
    page: 'docs/data-model.md',
    head: ['| entity | text form | example |', '| --- | --- | --- |'],
    join: '\n',
  },
  'data-model-entities': { page: 'docs/data-model.md', head: [], join: '\n\n' },
  'data-model-instructions': { page: 'docs/data-model.md', head: [], join: '\n\n' },
  'errors-rejections': {
    page: 'docs/errors.md',
    head: ['| code | number | meaning |', '| --- | --- | --- |'],
    join: '\n',
  },
  'security-sections': { page: 'docs/security.md', head: [], join: '\n\n' },
  'app-api-switches': { page: 'docs/app-api.md', head: [], join: '\n\n' },
  'config-sections': { page: 'docs/configuration.md', head: [], join: '\n\n' },
  'operations-alerts': {
    page: 'docs/operations.md',
    head: ['| alert | severity | means | do |', '| ----- | -------- | ----- | -- |'],
    join: '\n',
  },
  'indexer-replica-intro': { page: 'docs/indexer.md', head: [], join: '\n\n' },
  'indexer-replica': { page: 'docs/indexer.md', head: [], join: '\n\n' },
  'security-read-replica': { page: 'docs/security.md', head: [], join: '\n\n' },
  'indexer-read-families': {
    page: 'docs/indexer.md',
    head: ['| module | routes served from the committed reads |', '| --- | --- |'],
    join: '\n',
  },
};

/**
 * Every section and where it sits: the core's pages' (MODULE_DOC_SECTIONS), then those the modules host
 * on their own pages (`hostsDocSections`), in registry order. A name is placed once.
 */
export function docSectionPlaces(
  modules: readonly LedgerModule[],
): Readonly<Partial<Record<ModuleDocSection, DocSectionPlace>>> {
  const out: Partial<Record<ModuleDocSection, DocSectionPlace>> = { ...MODULE_DOC_SECTIONS };
  for (const m of modules)
    for (const [name, place] of Object.entries(m.hostsDocSections ?? {}) as [
      ModuleDocSection,
      DocSectionPlace,
    ][]) {
      if (Object.hasOwn(out, name)) throw new Error(`docs section ${name} of ${m.name} is placed twice`);
      out[name] = place;
    }
  return out;
}

/** A section's body: its head and every module's entries, in registry order. */
export function renderModuleDocSection(section: ModuleDocSection, modules: readonly LedgerModule[]): string {
  const place = docSectionPlaces(modules)[section];
  if (place === undefined) throw new Error(`docs section ${section} is placed by no module`);
  const { head, join } = place;
  const entries = modules.flatMap((m) => m.docSections?.[section] ?? []);
  if (entries.length === 0) return '';
  return [...(head.length > 0 ? [head.join('\n')] : []), ...entries].join(join);
}

const marker = (name: string) =>
  new RegExp(`(<!-- modules:${name} -->\\n)[\\s\\S]*?(<!-- /modules:${name} -->)`, 'g');

/** A page's text with each of its module sections rendered from the descriptors. */
export function renderModuleDocPage(page: string, text: string, modules: readonly LedgerModule[]): string {
  let out = text;
  const places = docSectionPlaces(modules);
  for (const [name, place] of Object.entries(places) as [ModuleDocSection, DocSectionPlace][]) {
    if (place.page !== page) continue;
    const re = marker(name);
    const found = [...out.matchAll(re)].length;
    if (found !== 1) throw new Error(`${page} has ${found} modules:${name} sections (one expected)`);
    const body = renderModuleDocSection(name, modules);
    out = out.replace(
      re,
      (_, open: string, close: string) => `${open}${body === '' ? '' : `${body}\n`}${close}`,
    );
  }
  return out;
}

/** The pages that hold module sections (paths relative to the repository root). */
export function moduleDocPages(modules: readonly LedgerModule[]): string[] {
  return [...new Set(Object.values(docSectionPlaces(modules)).map((p) => p.page))].sort();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { LEDGER_MODULES } = await import('./load.js');
  const root = new URL('../../', import.meta.url);
  for (const page of moduleDocPages(LEDGER_MODULES)) {
    const url = new URL(page, root);
    const text = readFileSync(url, 'utf8');
    const next = renderModuleDocPage(page, text, LEDGER_MODULES);
    if (next !== text) {
      writeFileSync(url, next);
      console.log(`rewrote ${page}`);
    }
  }
}
