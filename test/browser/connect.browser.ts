// `npm run test:browser`: Connect between two Chromium pages through a real node (docs/connect.md). The
// app page opens a session and shows its pairing URI; the wallet page (holding the admin key) pairs with
// it; the app asks for a signature on a RegisterDomain transaction, the wallet signs, the app submits it
// and it commits. Every frame the node wrote to either socket is captured at the node (the `ws` send of
// this process, which serves the node): none holds any of the plaintext exchanged.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { type Browser, chromium, type Page } from 'playwright-core';
import WebSocket from 'ws';
import { CHROMIUM, pageServer } from '../helpers/browser-sdk.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';

/** The SDK and its Connect entry, bundled for a page as one ES module (`sdk`, `connect`). */
async function bundle(): Promise<string> {
  const src = (f: string) => fileURLToPath(new URL(`../../src/sdk/${f}`, import.meta.url));
  const result = await build({
    stdin: {
      contents: `export * as sdk from ${JSON.stringify(src('index.ts'))};\nexport * as connect from ${JSON.stringify(fileURLToPath(new URL('../../src/modules/connect/sdk-connect.ts', import.meta.url)))};`,
      resolveDir: fileURLToPath(new URL('.', import.meta.url)),
      loader: 'ts',
    },
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'esm',
    conditions: ['torana-source'],
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

// Runs in the pages (plain JavaScript as text, so the test runner's transform never rewrites it).
const APP = `async ({ sdkUrl, url }) => {
  const { connect } = await import(sdkUrl);
  window.app = await connect.connectApp({ url });
  return window.app.pairingUri;
}`;
const WALLET = `async ({ sdkUrl, uri, account, key }) => {
  const { sdk, connect } = await import(sdkUrl);
  window.asked = [];
  window.wallet = await connect.pairWallet(uri, {
    account,
    signer: sdk.importKeyPair(key),
    approve: (payload) => { window.asked.push(payload.instructions.map((i) => i.kind)); return true; },
  });
  return window.wallet.sid;
}`;
const SIGN_AND_SUBMIT = `async ({ sdkUrl, url, chainId, domain }) => {
  const { sdk } = await import(sdkUrl);
  const wallet = await window.app.wallet;
  const payload = new sdk.TransactionBuilder(chainId, wallet.account)
    .add(sdk.instructions.registerDomain(domain)).payload();
  const built = await window.app.requestSignature(payload);
  const done = await new sdk.ToranaClient({ url }).submitAndWait(built, { timeoutMs: 60000 });
  return { account: wallet.account, hash: done.hash, height: done.blockHeight };
}`;

describe('Connect between an app page and a wallet page in Chromium', () => {
  let origin: Awaited<ReturnType<typeof pageServer>>;
  let node: ServedTestNode;
  let browser: Browser;
  const relayed: Buffer[] = [];
  const send = WebSocket.prototype.send;

  before(async () => {
    origin = await pageServer(await bundle());
    node = await startServedNode({ 'gateway.cors_origins': [origin.origin] });
    // The frames the node writes to its sockets: what the relay handed from one page to the other.
    WebSocket.prototype.send = function (this: WebSocket, data: unknown, ...rest: unknown[]) {
      if ((this as unknown as { _isServer: boolean })._isServer)
        relayed.push(Buffer.from(data as Uint8Array));
      return (send as (...a: unknown[]) => void).call(this, data, ...rest);
    } as typeof send;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });
  after(async () => {
    WebSocket.prototype.send = send;
    await browser?.close();
    await node?.stopAll();
    origin?.server.close();
  });

  async function open(): Promise<Page> {
    const page = await browser.newPage();
    page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
    await page.goto(origin.origin);
    return page;
  }

  it('pairs, the wallet signs, the app submits, it commits; no relayed frame holds plaintext', async () => {
    const sdkUrl = `${origin.origin}/sdk.js`;
    const [appPage, walletPage] = [await open(), await open()];
    const uri = (await appPage.evaluate(`(${APP})(${JSON.stringify({ sdkUrl, url: node.url })})`)) as string;
    assert.match(
      uri,
      /^torana-connect:[A-Za-z0-9_-]{43}\?node=.*&token=[A-Za-z0-9_-]{43}&pk=[A-Za-z0-9_-]{43}$/,
    );
    const key = node.admin.key.privateKeyText();
    const walletArgs = { sdkUrl, uri, account: node.admin.id, key };
    await walletPage.evaluate(`(${WALLET})(${JSON.stringify(walletArgs)})`);
    const domain = 'connect_browser_shop';
    const args = { sdkUrl, url: node.url, chainId: node.chainId, domain };
    const done = (await appPage.evaluate(`(${SIGN_AND_SUBMIT})(${JSON.stringify(args)})`)) as {
      account: string;
      hash: string;
      height: number;
    };
    assert.equal(done.account, node.admin.id);
    assert.ok(node.node.ledger.state.domain(domain), 'the transaction committed');
    assert.deepEqual(await walletPage.evaluate('window.asked'), [['RegisterDomain']]);
    // The frames at the node: the hello, the request, the answer — sealed.
    assert.ok(relayed.length >= 3, `${relayed.length} frames`);
    const all = Buffer.concat(relayed);
    const plaintexts = [domain, 'RegisterDomain', 'sign_request', 'sign_result', 'hello', node.admin.id];
    for (const p of plaintexts) {
      assert.ok(!all.includes(Buffer.from(p)), `a relayed frame holds "${p}"`);
      assert.ok(!all.toString('latin1').includes(p));
    }
    console.log(
      `connect (browser): paired, signed, committed at height ${done.height}; ${relayed.length} frames relayed (${all.length} bytes), none holds plaintext`,
    );
  });
});
