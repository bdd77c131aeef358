// `npm run test:browser`: the dashboard the node serves at /dashboard/, in Debian's Chromium
// (playwright-core), against a real node: the overview loads; a transaction submitted through the SDK
// shows in the live feed within a second; search by its hash opens its page with its instructions; an
// account page shows the JSON route's balance; the live feed resumes after the node restarts; no console
// errors; axe-core finds no serious or critical violation; screenshots of every page go to
// test/browser/artifacts/. Reports the first load's compressed size and the time to the first live update.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { type Browser, chromium, type Page } from 'playwright-core';
import { BUILT_ASSETS_DIR, firstLoadGzipBytes, loadAssets } from '../../src/modules/dashboard/assets.js';
import { serveNode } from '../../src/node/serve.js';
import { importKeyPair, instructions, ToranaClient } from '../../src/sdk/index.js';
import { CHROMIUM } from '../helpers/browser-sdk.js';
import { axeScan, Console } from '../helpers/dashboard-page.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';

const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname;
const LIVE_MS_MAX = 1000;

// What the functions evaluated in the page use of its globals (this file is type-checked without DOM).
declare const document: {
  querySelector(s: string): { textContent: string | null } | null;
  documentElement: { scrollWidth: number };
};
declare const window: { innerWidth: number };

describe('the dashboard in Chromium', () => {
  let t: ServedTestNode;
  let browser: Browser;
  let page: Page;
  let client: ToranaClient;
  let base: string;
  const consoleLog = new Console();
  let submitted: { hash: string; domain: string } | undefined;

  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    t = await startServedNode({ 'telemetry.profile': 'developer' });
    base = `${t.url}/dashboard/`;
    const signer = importKeyPair(t.admin.key.privateKeyText());
    client = new ToranaClient({ url: t.url, account: t.admin.id, signer });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    consoleLog.watch(page);
  });
  after(async () => {
    await browser?.close();
    await t?.served.close();
    await t?.cleanup();
  });

  const shot = (name: string) => page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true });

  it('loads the overview against a fresh node, within the first-load size budget', async () => {
    const assets = loadAssets(BUILT_ASSETS_DIR);
    assert.ok(assets, 'npm run build writes the dashboard bundle');
    const gzipBytes = firstLoadGzipBytes(assets);
    await page.goto(base);
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await page.getByTestId('height').waitFor();
    assert.ok(Number(await page.getByTestId('height').textContent()) >= 1);
    await page.locator('.feed').waitFor();
    const transferred = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .filter((e) => e.name.includes('/dashboard/'))
        .reduce((n, e) => n + (e as unknown as { encodedBodySize: number }).encodedBodySize, 0),
    );
    console.log(
      `dashboard first load: ${gzipBytes} bytes gzip (${(gzipBytes / 1024).toFixed(1)} KiB, budget 200 KiB)`,
    );
    assert.ok(gzipBytes < 200 * 1024);
    assert.ok(transferred > 0 && transferred <= gzipBytes, `encoded bytes on the wire: ${transferred}`);
    await page.getByText('live', { exact: true }).waitFor();
  });

  it('shows a transaction submitted through the SDK in the live feed within a second', async () => {
    await page.goto(base);
    await page.getByText('live', { exact: true }).waitFor();
    const domain = 'dashboardland';
    const tx = await client.build([instructions.registerDomain(domain)]);
    const t0 = Date.now();
    const seen = page.locator(`.feed [data-hash="${tx.hash}"]`).waitFor({ timeout: 10_000 });
    await client.submit(tx);
    await seen;
    const liveMs = Date.now() - t0;
    const firstMark = await page.evaluate(
      () => performance.getEntriesByName('torana-first-live-update')[0]?.startTime ?? -1,
    );
    console.log(
      `dashboard: submit → live feed ${liveMs} ms; first live update ${Math.round(firstMark)} ms after navigation`,
    );
    assert.ok(liveMs < LIVE_MS_MAX, `${liveMs} ms`);
    assert.ok(firstMark > 0);
    submitted = { hash: tx.hash, domain };
    // A few more, then three polls, so the screenshot's charts have points.
    for (const d of ['dashboard-a', 'dashboard-b', 'dashboard-c'])
      await client.submit(await client.build([instructions.registerDomain(d)]));
    await page.waitForTimeout(3500);
    await shot('overview');
    await axeScan(page, 'overview');
  });

  it('opens the transaction found by searching its hash, with its instructions (keyboard only)', async () => {
    assert.ok(submitted);
    await page.getByRole('searchbox', { name: 'Search' }).focus();
    await page.keyboard.type(submitted.hash);
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/dashboard/#/tx/${submitted.hash}`);
    await page.getByTestId('tx-status').waitFor();
    assert.equal(await page.getByTestId('tx-hash').textContent(), submitted.hash);
    assert.equal(await page.getByTestId('tx-status').textContent(), 'Committed');
    const kinds = await page
      .locator('.instructions > li')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')));
    assert.deepEqual(kinds, ['RegisterDomain']);
    assert.match(
      String(await page.locator('.instructions pre').textContent()),
      new RegExp(`"id": "${submitted.domain}"`),
    );
    await shot('transaction');
    await axeScan(page, 'transaction');
  });

  it('shows an account balance equal to the JSON route', async () => {
    const json = (await (await fetch(`${t.url}/v1/accounts/${encodeURIComponent(t.admin.id)}`)).json()) as {
      assets: { definition: string; value: string }[];
    };
    const gas = json.assets.find((a) => a.definition === 'gas#system');
    assert.ok(gas);
    await page.goto(`${base}#/account/${encodeURIComponent(t.admin.id)}`);
    const cell = page.locator('[data-asset="gas#system"]');
    await cell.waitFor();
    assert.equal(await cell.textContent(), gas.value);
    await shot('account');
    await axeScan(page, 'account');
  });

  it('renders the other pages without serious accessibility violations', async () => {
    const pages: [string, string][] = [
      ['blocks', '#/blocks'],
      ['block', '#/block/1'],
      ['accounts', '#/accounts'],
      ['domains', '#/domains'],
      ['assets', '#/assets'],
      ['nfts', '#/nfts'],
      ['asset', `#/asset/${encodeURIComponent('gas#system')}`],
      ['consensus', '#/consensus'],
      ['conference', '#/conference'],
      ['domain', '#/domain/dashboardland'],
      ['search-miss', '#/search?q=nowhere'],
    ];
    for (const [name, hash] of pages) {
      // A search for nothing asks routes that answer 404, which Chromium logs as failed loads.
      consoleLog.expectNetwork = name === 'search-miss';
      await page.goto(`${base}${hash}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.waitForFunction(() => document.querySelector('[role="status"]')?.textContent !== 'Loading…');
      await page.locator('main table, main pre, main [role="alert"]').first().waitFor();
      await shot(name);
      await axeScan(page, name);
    }
    consoleLog.expectNetwork = false;
  });

  it('fits a phone-sized screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(base);
    await page.getByTestId('height').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${overflow} px wider than the screen`);
    await shot('overview-phone');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('resumes the live feed after the node restarts and shows new blocks', async () => {
    await page.goto(base);
    await page.getByText('live', { exact: true }).waitFor();
    // An event before the outage gives the page an id to resume from.
    const before = await client.build([instructions.registerDomain('beforerestart')]);
    await client.submit(before);
    await page.locator(`.feed [data-hash="${before.hash}"]`).waitFor({ timeout: 5_000 });
    const port = Number(new URL(t.url).port);
    consoleLog.expectNetwork = true;
    await t.served.close();
    await page.getByText('reconnecting', { exact: true }).waitFor({ timeout: 10_000 });
    await t.restart({ 'gateway.port': port });
    t.served = await serveNode(t.node, { dir: t.dir });
    // Committed at once, likely before the page reconnects: it must come through the resumed stream.
    const tx = await client.build([instructions.registerDomain('afterrestart')]);
    const done = await client.submitAndWait(tx, { timeoutMs: 20_000 });
    const whileAway = (await page.locator('.badge').textContent()) === 'reconnecting';
    await page.locator(`.feed [data-hash="${tx.hash}"]`).waitFor({ timeout: 15_000 });
    await page.getByText('live', { exact: true }).waitFor();
    consoleLog.expectNetwork = false;
    const block = page.locator(`.feed li[data-kind="block"] a[href="#/block/${done.blockHeight}"]`);
    await block.waitFor({ timeout: 5_000 });
    await shot('overview-after-restart');
    console.log(
      `dashboard: restart resumed; the new transaction committed ${whileAway ? 'before' : 'after'} the page reconnected; ${consoleLog.outage.length} expected failed loads (outage, search for nothing)`,
    );
  });

  it('logged no console errors', () => {
    assert.deepEqual(consoleLog.errors, []);
  });
});
