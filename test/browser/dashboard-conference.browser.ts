// `npm run test:browser`: the dashboard's conference page in Chromium against a real node with
// the conference routes on. A relay registered and reporting health and a public call created through the
// SDK's instructions (committed transactions) show in the page's calls and relays tables; axe-core finds
// nothing serious; the screenshot goes to test/browser/artifacts/conference.png.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { type Browser, chromium, type Page } from 'playwright-core';
import { parseAccountId } from '../../src/model/ids.js';
import { instructions } from '../../src/sdk/index.js';
import { CHROMIUM } from '../helpers/browser-sdk.js';
import { axeScan, Console } from '../helpers/dashboard-page.js';
import { run } from '../helpers/node.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';

const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname;
const START_MS = Date.UTC(2026, 10, 26, 9, 0, 0);

describe('the dashboard in Chromium: conference calls and relays', () => {
  let t: ServedTestNode;
  let browser: Browser;
  let page: Page;
  let callId: string;
  const consoleLog = new Console();

  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    t = await startServedNode({ 'telemetry.profile': 'developer' });
    callId = `${parseAccountId(t.admin.id)!.domain}:weekly`;
    await run(t, t.admin, [
      instructions.registerConferenceRelay(
        'eu-7',
        new Uint8Array(32).fill(7),
        'wss://eu-7.example:443',
        'eu-west',
      ),
    ]);
    await run(t, t.admin, [
      instructions.reportConferenceRelayHealth('eu-7', { available: true, latencyMs: 42, lossPermille: 15 }),
      instructions.createConference(callId, {
        policy: 'public',
        title: 'Weekly review',
        scheduledStartMs: START_MS,
        maxParticipants: 8,
        gasRatePerMinute: '0',
        billingAccount: t.admin.id,
      }),
    ]);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    consoleLog.watch(page);
  });
  after(async () => {
    await browser?.close();
    await t?.stopAll();
  });

  it('shows the call and the relay as tables, not JSON, and is accessible', async () => {
    await page.goto(`${t.url}/dashboard/`);
    await page.getByRole('link', { name: 'Conference' }).click();
    await page.getByRole('heading', { level: 1, name: 'Conference' }).waitFor();
    const status = page.locator(`[data-call-status="${callId}"]`);
    await status.waitFor();
    assert.equal(await status.textContent(), 'active');
    assert.equal(await page.locator(`[data-call-roster="${callId}"]`).textContent(), '0 / 8');
    const calls = page.getByRole('table', { name: /^Calls: 1 of 1/ });
    const callRow = calls.getByRole('row').filter({ hasText: callId });
    assert.match(
      String(await callRow.textContent()),
      /Weekly review.*2026-11-26 09:00:00 UTC.*0 s, 0 segments, 0 gas/,
    );
    const relay = page.locator('[data-relay-status="eu-7"]');
    await relay.waitFor();
    assert.equal(await relay.textContent(), 'available');
    const relayRow = page
      .getByRole('table', { name: /^Relays: 1 of 1/ })
      .getByRole('row')
      .filter({ hasText: 'eu-7' });
    assert.match(String(await relayRow.textContent()), /eu-west.*wss:\/\/eu-7\.example:443.*42 ms.*1\.5 %/);
    assert.equal(await page.locator('main pre.json, section pre.json').count(), 0, 'no raw JSON');
    await page.screenshot({ path: `${ARTIFACTS}conference.png`, fullPage: true });
    await axeScan(page, 'conference');
  });

  it('logged no console errors', () => {
    assert.deepEqual(consoleLog.errors, []);
  });
});
