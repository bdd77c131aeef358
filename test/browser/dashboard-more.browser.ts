// `npm run test:browser` (issue 17, second part): the dashboard's ISO 20022 pages, search by alias and the
// node URL setting, in Debian's Chromium against real nodes. Node A runs the bridge with an operator key;
// a pacs.008 submitted the way test/iso20022 does it settles, the operator signs in on the settings page
// (WebCrypto signs the challenge), and the messages page and the message page show its status and the
// generated pacs.002 XML. Screenshots go to test/browser/artifacts/, axe-core finds nothing serious.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { type Browser, chromium, type Page } from 'playwright-core';
import { Ed25519KeyPair, importKeyPair, instructions, ToranaClient } from '../../src/sdk/index.js';
import { CHROMIUM } from '../helpers/browser-sdk.js';
import { axeScan, Console } from '../helpers/dashboard-page.js';
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

describe('the dashboard in Chromium: ISO 20022, aliases, another node', () => {
  let a: BridgeNode;
  let browser: Browser;
  let page: Page;
  let base: string;
  let aliasTx: string | undefined;
  const consoleLog = new Console();

  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    a = await startBridgeNode({
      'telemetry.profile': 'developer',
      'operator.public_keys': [OPERATOR.publicKeyText()],
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
  });

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
    await shot('asset-explorer');
    await axeScan(page, 'asset-explorer');
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

  it('logged no console errors', () => {
    assert.deepEqual(consoleLog.errors, []);
  });
});
