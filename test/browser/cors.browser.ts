// `npm run test:browser`: the esbuild-bundled SDK in Chromium (Debian's `chromium`, driven
// by playwright-core). A page served from one origin, allowed by the node's CORS allow list
// (`gateway.cors_origins`), loads the bundle, signs and submits a transaction to the node on another
// origin and sees it commit; a page from an origin NOT in the list is refused by the browser.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Browser, chromium } from 'playwright-core';
import { CHROMIUM, pageServer, sdkBundle } from '../helpers/browser-sdk.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';

describe('the bundled SDK in Chromium across origins', () => {
  let allowed: Awaited<ReturnType<typeof pageServer>>;
  let other: Awaited<ReturnType<typeof pageServer>>;
  let node: ServedTestNode;
  let browser: Browser;
  before(async () => {
    const bundle = await sdkBundle();
    allowed = await pageServer(bundle);
    other = await pageServer(bundle);
    node = await startServedNode({ 'gateway.cors_origins': [allowed.origin] });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });
  after(async () => {
    await browser?.close();
    await node?.stopAll();
    allowed?.server.close();
    other?.server.close();
  });

  async function tryCommit(origin: string, domain: string) {
    const page = await browser.newPage();
    try {
      await page.goto(origin);
      const input = {
        sdkUrl: `${origin}/sdk.js`,
        url: node.url,
        account: node.admin.id,
        key: node.admin.key.privateKeyText(),
        domain,
      };
      return await page.evaluate(async (i) => {
        // biome-ignore lint/suspicious/noExplicitAny: the bundle's module, loaded in the page.
        const sdk: any = await import(i.sdkUrl);
        try {
          const signer = sdk.importKeyPair(i.key);
          const client = new sdk.ToranaClient({ url: i.url, account: i.account, signer });
          const tx = (await client.transaction()).add(sdk.instructions.registerDomain(i.domain)).sign(signer);
          const done = await client.submitAndWait(tx, { timeoutMs: 20000 });
          return { ok: true, hash: tx.hash, done: done.hash, backend: sdk.cryptoBackendInfo().platform };
        } catch (e) {
          return { ok: false, error: `${(e as Error).name}: ${(e as Error).message}` };
        }
      }, input);
    } finally {
      await page.close();
    }
  }

  it('signs and submits from an allowed origin; the transaction commits', async () => {
    const r = await tryCommit(allowed.origin, 'chromiumland');
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal(r.done, r.hash);
    assert.equal(r.backend, 'browser');
  });

  it('is refused from an origin not in the allow list', async () => {
    const r = await tryCommit(other.origin, 'refusedland');
    assert.equal(r.ok, false);
    assert.match(String(r.error), /ToranaTransportError/);
  });
});
