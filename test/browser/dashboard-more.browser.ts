// `npm run test:browser` (second part): the dashboard's ISO 20022 pages, search by alias and the
// node URL setting, in Debian's Chromium against real nodes. Node A runs the bridge with an operator key;
// a pacs.008 submitted the way test/iso20022 does it settles, the operator signs in on the settings page
// (WebCrypto signs the challenge), and the messages page and the message page show its status and the
// generated pacs.002 XML. Screenshots go to test/browser/artifacts/, axe-core finds nothing serious.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { type Browser, chromium, type Page } from 'playwright-core';
import { Ed25519KeyPair, importKeyPair, instructions, ToranaClient } from '../../src/sdk/index.js';
import { CHROMIUM } from '../helpers/browser-sdk.js';
import { axeScan, Console } from '../helpers/dashboard-page.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';
import {
  type BridgeNode,
  EUR,
  post,
  settledOrRejected,
  startBridgeNode,
  waitFor,
} from '../iso20022/bridge-fixture.js';
import { pacs008Sample } from '../iso20022/messages.js';

const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname;
const OPERATOR = Ed25519KeyPair.fromSeed(new Uint8Array(32).fill(0x52));
const MSG = 'DEUT-P008-20251126-DASH001';

/** A loopback port free now (the nodes must know each other's origin before they start). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise((r) => server.close(r));
  return port;
}

describe('the dashboard in Chromium: ISO 20022, aliases, another node', () => {
  let a: BridgeNode;
  let b: ServedTestNode;
  let browser: Browser;
  let page: Page;
  let base: string;
  let aliasTx: string | undefined;
  const consoleLog = new Console();

  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    const [portA, portB] = [await freePort(), await freePort()];
    // Node A serves the dashboard and lets it connect to node B; node B allows A's origin by CORS.
    a = await startBridgeNode({
      'gateway.port': portA,
      'telemetry.profile': 'developer',
      'operator.public_keys': [OPERATOR.publicKeyText()],
      'dashboard.connect_src': [`http://127.0.0.1:${portB}`],
    });
    b = await startServedNode({
      'gateway.port': portB,
      'gateway.cors_origins': [`http://127.0.0.1:${portA}`],
      'telemetry.profile': 'developer',
    });
    base = `${a.url}/dashboard/`;
    const r = await post(
      a,
      'pacs008',
      pacs008Sample(MSG, { source: a.alice.id, target: a.bob.id, asset: EUR }),
    );
    assert.equal(r.status, 202, JSON.stringify(r.body));
    await waitFor(a, MSG, settledOrRejected);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    consoleLog.watch(page);
  });
  after(async () => {
    await browser?.close();
    await a?.stopAll();
    await b?.stopAll();
  });

  const nodeUrlShown = (url: string) =>
    page
      .getByTestId('node-url')
      .filter({ hasText: new RegExp(`^${url.replace(/[.]/g, '\\.')}$`) })
      .waitFor();
  const shot = (name: string) => page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true });

  it('asks for an operator session on the ISO 20022 page, then signs in on the settings page', async () => {
    await page.goto(`${base}#/iso`);
    await page.getByRole('link', { name: 'Sign in as an operator' }).click();
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await page.getByLabel('Operator private key (802620…)').fill(OPERATOR.privateKeyText());
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('signed-in').waitFor();
    await shot('settings');
    await axeScan(page, 'settings');
  });

  it('lists the bridge message with its status and opens it with the generated XML', async () => {
    await page.getByRole('link', { name: 'ISO 20022' }).click();
    const status = page.locator(`[data-iso-status="${MSG}"]`);
    await status.waitFor();
    assert.equal(await status.textContent(), 'ACSC');
    await shot('iso-messages');
    await axeScan(page, 'iso-messages');
    await page.getByRole('link', { name: MSG }).click();
    await page.getByTestId('iso-status').waitFor();
    assert.equal(await page.getByTestId('iso-id').textContent(), MSG);
    assert.equal(await page.getByTestId('iso-status').textContent(), 'Accepted');
    const xml = page.locator('pre[data-report="pacs002"]');
    await xml.waitFor();
    const text = String(await xml.textContent());
    assert.match(text, /<GrpSts>ACSC<\/GrpSts>/);
    assert.match(text, new RegExp(`<OrgnlMsgId>${MSG}</OrgnlMsgId>`));
    await shot('iso-message');
    await axeScan(page, 'iso-message');
  });

  it('pages the audit entries with next and previous links (one entry a page)', async () => {
    const caption = page.locator('caption');
    const shown = async (re: RegExp) => {
      await caption.filter({ hasText: re }).waitFor();
      return re.exec(String(await caption.textContent()))!;
    };
    const link = (name: string) => page.getByRole('link', { name, exact: true });
    await page.goto(`${base}#/iso?per=1`);
    const first = await shown(/audit entries (\d+) to (\d+) of (\d+), latest first \(page 1 of (\d+)\)/);
    const total = Number(first[3]);
    assert.ok(total >= 2, `a settled pacs.008 leaves several audit entries (${total})`);
    assert.deepEqual([first[1], first[2], first[4]].map(Number), [total, total, total]);
    assert.equal(await link('Previous (newer)').count(), 0, 'no newer page than the first');
    await page.locator(`[data-iso-status="${MSG}"]`).waitFor();
    await link('Next (older)').click();
    await shown(
      new RegExp(`audit entries ${total - 1} to ${total - 1} of ${total}, latest first \\(page 2 of`),
    );
    await page.locator(`[data-iso-status="${MSG}"]`).waitFor();
    await shot('iso-messages-page-2');
    await axeScan(page, 'iso-messages-page-2');
    await link('Previous (newer)').click();
    await shown(new RegExp(`audit entries ${total} to ${total} of ${total}, latest first \\(page 1 of`));
    await page.goto(`${base}#/iso?page=${total}&per=1`);
    await shown(new RegExp(`audit entries 1 to 1 of ${total}, latest first \\(page ${total} of ${total}\\)`));
    assert.equal(await link('Next (older)').count(), 0, 'no older page than the last');
    await link('Previous (newer)').waitFor();
  });

  it('searches an account alias and an asset alias and opens the account and the definition', async () => {
    const admin = importKeyPair(a.admin.key.privateKeyText());
    const client = new ToranaClient({ url: a.url, account: a.admin.id, signer: admin });
    const tx = await client.build([
      instructions.registerAccountAlias('alice@bank', a.alice.id),
      instructions.setAssetAlias('euro', EUR),
    ]);
    await client.submitAndWait(tx, { timeoutMs: 20_000 }); // throws when rejected
    aliasTx = tx.hash;
    await page.goto(base);
    await page.getByRole('searchbox', { name: 'Search' }).fill('alice@bank');
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/dashboard/#/account/${encodeURIComponent(a.alice.id)}`);
    await page.locator('[data-alias="alice@bank"]').waitFor();
    // "Roles" once on the account page (the facts list them; the explorer summary does not repeat them).
    assert.equal(await page.locator('main dt', { hasText: /^Roles$/ }).count(), 1);
    await shot('account-alias');
    await axeScan(page, 'account-alias');
    // "euro" could also be a domain: the domain look-up answers 404, which Chromium logs as a failed load.
    consoleLog.expectNetwork = true;
    await page.getByRole('searchbox', { name: 'Search' }).fill('euro');
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/dashboard/#/asset/${encodeURIComponent(EUR)}`);
    await page.getByRole('heading', { level: 1, name: `Asset ${EUR}` }).waitFor();
    consoleLog.expectNetwork = false;
    // The explorer's holder snapshot lists alice (she holds euros).
    await page.locator(`[data-holder="${a.alice.id}"]`).waitFor();
    // An account id is shortened in its signatory only: its domain is shown whole.
    const link = page.locator(`main a[data-account="${a.alice.id}"]`).first();
    const shown = (await link.textContent()) ?? '';
    assert.ok(shown.endsWith(a.alice.id.slice(a.alice.id.lastIndexOf('@'))), shown);
    assert.ok(shown.includes('…'), shown);
    await shot('asset-explorer');
    await axeScan(page, 'asset-explorer');
  });

  it('draws no Lorenz table for an asset with one holder', async () => {
    const admin = importKeyPair(a.admin.key.privateKeyText());
    const client = new ToranaClient({ url: a.url, account: a.admin.id, signer: admin });
    const solo = `solo#${a.admin.id.slice(a.admin.id.lastIndexOf('@') + 1)}`;
    await client.submitAndWait(
      await client.build([
        instructions.registerAssetDefinition(solo),
        instructions.mintAsset(solo, a.admin.id, '1000'),
      ]),
      { timeoutMs: 20_000 },
    );
    await page.goto(`${base}#/asset/${encodeURIComponent(solo)}`);
    await page.locator(`[data-holder="${a.admin.id}"]`).waitFor();
    await page.getByTestId('lorenz-none').waitFor();
    assert.equal(await page.locator('main table caption', { hasText: /Lorenz/ }).count(), 0);
  });

  it("shows a past transaction's data events, replayed from the node's event stream", async () => {
    assert.ok(aliasTx);
    await page.goto(`${base}#/tx/${aliasTx}`);
    await page.getByTestId('tx-events').waitFor();
    const kinds = await page
      .locator('[data-testid="tx-events"] > li')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-event')));
    assert.ok(kinds.length >= 1, JSON.stringify(kinds));
    await shot('transaction-past-events');
    await axeScan(page, 'transaction-past-events');
  });

  it('adds blocks committed while the blocks page is open (explorer block stream)', async () => {
    await page.goto(`${base}#/blocks`);
    await page.getByRole('table', { name: /^Blocks, newest first/ }).waitFor();
    await page.getByRole('table', { name: 'Latest transactions' }).waitFor();
    await page.waitForTimeout(300); // the stream is open once the page shows its rows
    const admin = importKeyPair(a.admin.key.privateKeyText());
    const client = new ToranaClient({ url: a.url, account: a.admin.id, signer: admin });
    const done = await client.submitAndWait(await client.build([instructions.registerDomain('streamland')]));
    await page.locator(`table a[href="#/block/${done.blockHeight}"]`).first().waitFor({ timeout: 5_000 });
    await shot('blocks-live');
  });

  it("reads another node set on the settings page: node B's chain and live feed in node A's dashboard", async () => {
    assert.notEqual(a.url, b.url);
    const signer = importKeyPair(b.admin.key.privateKeyText());
    const clientB = new ToranaClient({ url: b.url, account: b.admin.id, signer });
    await clientB.submitAndWait(await clientB.build([instructions.registerDomain('onlyonb')]));
    await page.goto(`${base}#/settings`);
    await page.getByLabel('Node URL (empty: the node serving this page)').fill(b.url);
    await page.getByRole('button', { name: 'Use this node' }).click();
    await nodeUrlShown(b.url);
    consoleLog.expectNetwork = true; // "onlyonb" is no asset alias: that look-up answers 404
    await page.goto(`${base}#/search?q=onlyonb`);
    await page.getByRole('heading', { level: 1, name: 'Domain onlyonb' }).waitFor();
    consoleLog.expectNetwork = false;
    assert.equal(await page.getByTestId('domain-accounts').textContent(), '0');
    await page.goto(base);
    await page.getByText('live', { exact: true }).waitFor();
    const tx = await clientB.build([instructions.registerDomain('liveonb')]);
    const seen = page.locator(`.feed [data-hash="${tx.hash}"]`).waitFor({ timeout: 10_000 });
    await clientB.submit(tx);
    await seen;
    await shot('overview-node-b');
    // Back to the serving node: the setting cleared, node A's own chain again (no onlyonb there).
    await page.goto(`${base}#/settings`);
    await page.getByLabel('Node URL (empty: the node serving this page)').fill('');
    await page.getByRole('button', { name: 'Use this node' }).click();
    await nodeUrlShown(a.url);
  });

  it('logged no console errors', () => {
    assert.deepEqual(consoleLog.errors, []);
  });
});
