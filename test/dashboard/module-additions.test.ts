// What the ledger modules add to the dashboard (src/modules/dashboard/ui/extensions.ts): each module
// folder's `dashboard.ts`, bundled by the dashboard module's build as `torana:module-dashboards`, and
// each one's `rejection-forms.ts` as `torana:module-rejection-forms` (rejections shown at scale). The
// dashboard's own files name no module; this bundles the real search, extension list and transaction
// page's rejection with the real plugin and runs them in Node against a stub of the node's routes
// (fetch), as the browser would.
// test-runner: own process: it sets the browser globals (location, localStorage, fetch) the bundle reads.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import {
  moduleDashboardFiles,
  moduleDashboardsPlugin,
  moduleDashboardsSource,
  moduleRejectionFormFiles,
  // @ts-expect-error: a plain ES module script without types
} from '../../src/modules/dashboard/module-dashboards.mjs';
import LEDGER_MODULES from '../../src/modules/registry.js';

const ROOT = new URL('../../', import.meta.url).pathname;

interface Match {
  what: string;
  to: string;
}
interface Bundle {
  resolveQuery(q: string): Promise<Match[]>;
  readableRejection(code: string, message: string): string;
  RejectionFacts(p: { reason: unknown }): unknown;
  EXTENSIONS: readonly {
    accountPanels?: readonly { path: string }[];
    consensusPanels?: readonly { path: string; Panel: unknown }[];
    pages?: readonly { route: string; title?: string; path?: string; leading?: boolean; Page: unknown }[];
    searchHint?: string;
    settings?: readonly { paths: readonly string[]; Section: unknown }[];
    recentBlocks?: (n: number) => Promise<{ height: number; hash: string; creation_time_ms: number }[]>;
  }[];
}

/** The routes the stub node answers 200 (by method and path, and body if any), with their bodies; all else is 404. */
const ROUTES: Record<string, unknown> = {
  'POST /v1/aliases/resolve {"alias":"alice@bank"}': { account_id: 'ed0120AA@bank' },
  'POST /v1/assets/aliases/resolve {"alias":"euro"}': { asset_definition_id: 'euro#bank' },
  'GET /v1/domains/euro': { id: 'euro' },
  'GET /v1/explorer/blocks/7': { height: 7 },
  [`GET /v1/explorer/transactions/${'ab'.repeat(32)}`]: { hash: 'ab'.repeat(32) },
  [`GET /v1/explorer/blocks/${'cd'.repeat(32)}`]: { height: 3 },
  'GET /v1/explorer/blocks?per_page=10': {
    items: [{ height: 9, hash: 'ff'.repeat(32), creation_time_ms: 1 }],
  },
};

describe('the ledger modules’ additions to the dashboard', () => {
  const dir = mkdtempSync(join(tmpdir(), 'torana-dash-'));
  const asked: string[] = [];
  let ui: Bundle;

  before(async () => {
    const out = await build({
      stdin: {
        contents:
          "export { resolveQuery } from './src/modules/dashboard/ui/search.ts';\n" +
          "export { EXTENSIONS } from './src/modules/dashboard/ui/extensions.ts';\n" +
          "export { readableRejection } from './src/modules/dashboard/ui/rejections.ts';\n" +
          "export { RejectionFacts } from './src/modules/explorer/dashboard.ts';\n",
        resolveDir: ROOT,
        loader: 'ts',
      },
      plugins: [moduleDashboardsPlugin],
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      mainFields: ['module', 'main'],
      loader: { '.css': 'empty' },
      write: false,
      logLevel: 'silent',
    });
    const file = join(dir, 'ui.mjs');
    writeFileSync(file, out.outputFiles[0]!.text);
    const g = globalThis as Record<string, unknown>;
    g.location = { href: 'http://node.test/dashboard/' };
    g.localStorage = { getItem: () => null };
    g.fetch = async (url: string, init?: { method?: string; body?: string }) => {
      const key = `${init?.method ?? 'GET'} ${url.replace('http://node.test', '')}`;
      const asking = init?.body === undefined ? key : `${key} ${init.body}`;
      asked.push(asking);
      const body = ROUTES[asking];
      return new Response(JSON.stringify(body ?? { code: 'not_found', message: 'no' }), {
        status: body === undefined ? 404 : 200,
      });
    };
    ui = (await import(pathToFileURL(file).href)) as Bundle;
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('finds each module folder’s dashboard.ts by convention (today the aliases, conference, explorer, ISO 20022, operator and telemetry modules’)', () => {
    const files: string[] = moduleDashboardFiles();
    assert.deepEqual(
      files.map((f) => f.slice(ROOT.length)),
      [
        'src/modules/aliases/dashboard.ts',
        'src/modules/conference/dashboard.ts',
        'src/modules/explorer/dashboard.ts',
        'src/modules/iso20022/dashboard.ts',
        'src/modules/operator/dashboard.ts',
        'src/modules/telemetry/dashboard.ts',
      ],
    );
    assert.match(
      moduleDashboardsSource(files),
      /^import m0 from ".*aliases\/dashboard\.ts";\nimport m1 from ".*conference\/dashboard\.ts";\nimport m2 from ".*explorer\/dashboard\.ts";\nimport m3 from ".*iso20022\/dashboard\.ts";\nimport m4 from ".*operator\/dashboard\.ts";\nimport m5 from ".*telemetry\/dashboard\.ts";\nexport default \[m0, m1, m2, m3, m4, m5\];\n$/,
    );
  });

  it('the bundle carries a module’s own page, listed when the node serves its route', () => {
    const pages = ui.EXTENSIONS.flatMap((x) => x.pages ?? []);
    assert.deepEqual(
      pages.map(({ route, title, path, leading }) => ({ route, title, path, leading })),
      [
        { route: 'conference', title: 'Conference', path: '/v1/conference/calls', leading: undefined },
        // The chain's own pages, listed right after the overview; one item's pages are not listed.
        { route: 'blocks', title: 'Blocks', path: '/v1/explorer/blocks', leading: true },
        { route: 'accounts', title: 'Accounts', path: '/v1/explorer/accounts', leading: true },
        { route: 'domains', title: 'Domains', path: '/v1/explorer/domains', leading: true },
        { route: 'assets', title: 'Assets', path: '/v1/explorer/asset-definitions', leading: true },
        { route: 'nfts', title: 'NFTs', path: '/v1/explorer/nfts', leading: true },
        { route: 'block', title: undefined, path: undefined, leading: undefined },
        { route: 'tx', title: undefined, path: undefined, leading: undefined },
        { route: 'asset', title: undefined, path: undefined, leading: undefined },
        { route: 'domain', title: undefined, path: undefined, leading: undefined },
        { route: 'iso', title: 'ISO 20022', path: '/v1/iso20022/audit/messages', leading: undefined },
      ],
    );
    for (const p of pages) assert.equal(typeof p.Page, 'function');
  });

  it('the bundle carries the module’s account panel and search hint', () => {
    assert.deepEqual(
      ui.EXTENSIONS.flatMap((x) => x.accountPanels ?? []).map((p) => p.path),
      ['/v1/aliases/by_account', '/v1/explorer/accounts/{id}'],
    );
    assert.deepEqual(
      ui.EXTENSIONS.map((x) => x.searchHint),
      ['alias', undefined, 'hash, height', undefined, undefined, undefined],
    );
  });

  it('searches heights and hashes through the module that serves blocks: a transaction first, else a block', async () => {
    asked.length = 0;
    assert.deepEqual(await ui.resolveQuery(' 7 '), [{ what: 'Block 7', to: '#/block/7' }]);
    assert.deepEqual(
      asked,
      ['GET /v1/explorer/blocks/7'],
      'a height is the explorer’s form: no domain or alias look-up',
    );
    asked.length = 0;
    assert.deepEqual(await ui.resolveQuery('0x' + 'AB'.repeat(32)), [
      { what: 'Transaction', to: `#/tx/${'ab'.repeat(32)}` },
    ]);
    assert.deepEqual(
      asked,
      [`GET /v1/explorer/transactions/${'ab'.repeat(32)}`],
      'a hash asks the chain only',
    );
    assert.deepEqual(await ui.resolveQuery('cd'.repeat(32)), [
      { what: 'Block', to: `#/block/${'cd'.repeat(32)}` },
    ]);
    assert.deepEqual(await ui.resolveQuery('8'), [], 'no block 8 on the stub node');
  });

  it('the live feed catches up with the newest blocks a module gives', async () => {
    const recent = ui.EXTENSIONS.flatMap((x) => (x.recentBlocks === undefined ? [] : [x.recentBlocks]));
    assert.equal(recent.length, 1);
    assert.deepEqual(await recent[0]!(10), [{ height: 9, hash: 'ff'.repeat(32), creation_time_ms: 1 }]);
  });

  it('the bundle carries the operator sign-in’s section of the settings page, shown when the node serves its routes', () => {
    const sections = ui.EXTENSIONS.flatMap((x) => x.settings ?? []);
    assert.deepEqual(
      sections.map((x) => x.paths),
      [['/v1/operator/session', '/v1/operator/auth/login/options']],
    );
    for (const x of sections) assert.equal(typeof x.Section, 'function');
  });

  it('the bundle carries a module’s panel of the consensus page, shown when the node serves its route', () => {
    const panels = ui.EXTENSIONS.flatMap((x) => x.consensusPanels ?? []);
    assert.deepEqual(
      panels.map((p) => p.path),
      ['/v1/telemetry/peers-info'],
    );
    for (const p of panels) assert.equal(typeof p.Panel, 'function');
  });

  it('searches a name through the module: label@domain as an account, a bare label besides the domain', async () => {
    asked.length = 0;
    assert.deepEqual(await ui.resolveQuery(' alice@bank '), [
      { what: 'Account alias alice@bank', to: '#/account/ed0120AA%40bank' },
    ]);
    assert.deepEqual(asked, ['POST /v1/aliases/resolve {"alias":"alice@bank"}']);
    asked.length = 0;
    const both = await ui.resolveQuery('euro');
    console.log(`search "euro": ${both.map((m) => m.what).join(', ')}`);
    assert.deepEqual(both, [
      { what: 'Asset alias euro', to: '#/asset/euro%23bank' },
      { what: 'Domain euro', to: '#/domain/euro' },
    ]);
    asked.length = 0;
    assert.deepEqual(await ui.resolveQuery('rose#wonderland'), []);
    assert.deepEqual(asked, ['GET /v1/assets/definitions/rose%23wonderland'], 'a definition id is no name');
  });

  it('finds each module folder’s rejection-forms.ts by convention: the registry entries with rejection forms', () => {
    const files: string[] = moduleRejectionFormFiles();
    assert.deepEqual(
      files.map((f) => f.slice(ROOT.length)),
      LEDGER_MODULES.filter((m) => m.rejectionForms !== undefined)
        .map((m) => `src/modules/${m.name}/rejection-forms.ts`)
        .sort(),
    );
  });

  // The committed text keeps base units (consensus data); a person reads the amounts at scale.
  const CAP =
    'account cap 200 (window tx, units at scale 2) of usd#w exceeded by a@w: 350 with this transfer';
  const CAP_AT_SCALE = 'account cap 2.00 (window tx) of usd#w exceeded by a@w: 3.50 with this transfer';

  it('reads a cap rejection’s amounts at their definition’s scale; a message of no known form unchanged', () => {
    assert.equal(ui.readableRejection('transfer_cap_exceeded', CAP), CAP_AT_SCALE);
    assert.equal(ui.readableRejection('account_not_found', 'account a@w not found'), 'account a@w not found');
  });

  it('the transaction page shows a rejection’s message at scale, with its code', () => {
    const shown = texts(ui.RejectionFacts({ reason: { code: 'transfer_cap_exceeded', message: CAP } }));
    console.log(`rejection shown: ${shown.join(' | ')}`);
    assert.ok(shown.includes(CAP_AT_SCALE), shown.join(' | '));
    assert.ok(shown.includes('transfer_cap_exceeded'));
    assert.ok(!shown.some((t) => t.includes('units at scale')), 'the committed base units are not shown');
  });
});

/** Every string and number a rendered tree (Preact virtual nodes, their props and children) holds. */
function texts(node: unknown, out: string[] = []): string[] {
  if (typeof node === 'string' || typeof node === 'number') out.push(String(node));
  else if (Array.isArray(node)) for (const n of node) texts(n, out);
  else if (node !== null && typeof node === 'object' && 'props' in node)
    texts((node as { props: unknown }).props, out);
  else if (node !== null && typeof node === 'object')
    for (const [k, v] of Object.entries(node)) if (k !== 'type') texts(v, out);
  return out;
}
