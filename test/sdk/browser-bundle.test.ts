// The SDK in a browser bundle ("Works in Node.js ≥ 20 and in a browser bundle"). esbuild
// bundles src/sdk/index.ts for the browser, resolving `#crypto-backend` through package.json's
// `imports` map with no plugin (a user's bundler gets the same answer from the `browser` condition),
// and must find no Node built-in or native package in the graph. Split into chunks, it must be one
// startup file and one chunk loaded on first use (the signalling AEAD) that shares no code with it. The
// bundle then runs in a node:vm context holding only browser-like globals, where it must produce
// byte-for-byte the transaction the Node SDK (libsodium backend) produces, verify RFC 8032 vectors with
// libsodium's strictness, hash a published BLAKE2b-256 vector, and get a transaction accepted and
// committed by a served node.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { type BuildOptions, build, type Message } from 'esbuild';
import * as nodeSdk from '../../src/sdk/index.js';
import { toHex } from '../../src/util/hex.js';
import { RFC8032_VECTORS, strictCases } from '../fixtures/crypto/ed25519-fixture.js';
import { loadProbe } from '../helpers/browser-vm.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';

const ROOT = new URL('../../', import.meta.url);
/** Packages that cannot run in a browser (native addons, servers, Node sockets). */
const NODE_ONLY_PACKAGES = new Set([
  'sodium-native',
  '@chainsafe/blst',
  'lmdb',
  'ws',
  'fastify',
  'pino',
  'prom-client',
]);
/** Modules that must stay out of the SDK's graph (node backend, BLS, verification pool, key files). */
const NODE_ONLY_SOURCES = ['backend-node.ts', 'bls.ts', 'verify-pool.ts', 'keyfile.ts'].map(
  (f) => `src/crypto/${f}`,
);
const SEED = RFC8032_VECTORS[0]!.secretKey;

function packageName(path: string): string | undefined {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path);
  return m?.[1];
}

/**
 * Bundles with plain esbuild, no plugin: `#crypto-backend` resolves through package.json `imports`
 * (the `torana-source` condition picks src/, platform=browser adds the `browser` condition). A Node
 * built-in fails the build ("Could not resolve"); those errors and any node-only package in the graph
 * come back as `nodeOnly` so the test lists them all.
 */
async function bundle(entry: string, extra: BuildOptions = {}) {
  const nodeOnly: string[] = [];
  const result = await build({
    entryPoints: [fileURLToPath(new URL(entry, ROOT))],
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'esm',
    conditions: ['torana-source'],
    metafile: true,
    logLevel: 'silent',
    ...extra,
  }).catch((e: { errors?: Message[] }) => {
    nodeOnly.push(...(e.errors ?? []).map((m) => `${m.location?.file ?? '?'}: ${m.text}`));
    return undefined;
  });
  const inputs = Object.keys(result?.metafile?.inputs ?? {});
  for (const f of inputs) {
    const name = packageName(f);
    if (name !== undefined && NODE_ONLY_PACKAGES.has(name)) nodeOnly.push(`bundled ${f}`);
  }
  return { text: result?.outputFiles?.[0]?.text ?? '', inputs, nodeOnly };
}

describe('SDK browser bundle', () => {
  let sdkBundle: Awaited<ReturnType<typeof bundle>>;
  // Loaded on first use, so that a bundle that cannot run fails the tests that run it while the
  // first test still lists the Node-only imports that broke it.
  let probePromise: ReturnType<typeof loadProbe> | undefined;
  let hashBundle: Awaited<ReturnType<typeof bundle>>;
  const probe = () => {
    probePromise ??= loadProbe([
      [sdkBundle, 'ToranaSdk'],
      [hashBundle, 'ToranaHash'],
    ]);
    return probePromise;
  };

  before(async () => {
    sdkBundle = await bundle('src/sdk/index.ts');
    hashBundle = await bundle('src/crypto/hash.ts');
  });

  it('builds with no Node built-in, native package or node-only module in its graph', async (t) => {
    assert.deepEqual(
      sdkBundle.nodeOnly,
      [],
      `Node-only imports in the SDK bundle:\n${sdkBundle.nodeOnly.join('\n')}`,
    );
    assert.deepEqual(hashBundle.nodeOnly, [], 'Node-only imports in the hash.ts bundle');
    assert.ok(sdkBundle.inputs.includes('src/crypto/backend-browser.ts'), 'the browser backend is bundled');
    const leaked = sdkBundle.inputs.filter((f) => NODE_ONLY_SOURCES.includes(f));
    assert.deepEqual(leaked, [], 'node-only modules in the SDK graph');
    const min = await bundle('src/sdk/index.ts', { minify: true });
    const size = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
    t.diagnostic(
      `SDK bundle: ${size(sdkBundle.text.length)}, minified ${size(min.text.length)}, gzip ${size(gzipSync(min.text).length)}`,
    );
  });

  it('splits off only the signalling AEAD, sharing no code with the startup code (one startup file)', async () => {
    const r = await build({
      entryPoints: [fileURLToPath(new URL('src/sdk/index.ts', ROOT))],
      bundle: true,
      splitting: true,
      minify: true,
      write: false,
      outdir: fileURLToPath(new URL('out-split', ROOT)),
      platform: 'browser',
      format: 'esm',
      conditions: ['torana-source'],
      metafile: true,
      logLevel: 'silent',
    });
    const outputs = Object.values(r.metafile.outputs);
    const entry = outputs.find((o) => o.entryPoint !== undefined)!;
    assert.deepEqual(
      entry.imports.map((i) => i.kind),
      ['dynamic-import'],
      'the startup code imports no shared chunk, and loads one chunk on first use',
    );
    const lazy = r.metafile.outputs[entry.imports[0]!.path]!;
    assert.deepEqual(lazy.imports, [], 'the chunk loaded on first use imports nothing');
    const inputs = Object.keys(lazy.inputs).map((f) => packageName(f) ?? f);
    assert.deepEqual([...new Set(inputs)], ['@noble/ciphers', 'src/modules/conference/signal-aead.ts']);
    assert.equal(outputs.length, 2);
  });

  it('runs with browser globals only and reports the browser backend', async () => {
    const env = JSON.parse(await (await probe()).env!(''));
    assert.deepEqual(
      { require: env.require, process: env.process, Buffer: env.Buffer },
      { require: 'undefined', process: 'undefined', Buffer: 'undefined' },
    );
    assert.equal(env.backend.platform, 'browser');
    assert.equal(env.backend.bls, false);
    assert.equal(nodeSdk.cryptoBackendInfo().platform, 'node', 'the host side runs the node backend');
  });

  it('signs a transaction byte for byte as the Node SDK does', async () => {
    const input = { seed: SEED, chainId: 'torana-test', nonce: 42, createdAtMs: 1_700_000_000_000 };
    const p = await probe();
    const browser = JSON.parse(await p.signTx!(JSON.stringify(input)));
    const ix = nodeSdk.instructions;
    const key = nodeSdk.importKeyPair(SEED);
    const account = nodeSdk.accountOf(key, 'wonderland');
    const tx = new nodeSdk.TransactionBuilder(input.chainId, account)
      .add(ix.registerDomain('wonderland', { motto: 'curiouser' }), ix.registerAccount(account))
      .add(ix.mintAsset('rose#wonderland', account, '12.50'), ix.log('from a browser'))
      .metadata('note', { n: 1, tags: ['a', 'b'] })
      .ttlMs(60_000)
      .nonce(input.nonce)
      .createdAtMs(input.createdAtMs)
      .sign(key);
    assert.equal(browser.publicKey, key.publicKeyText());
    assert.equal(browser.hash, tx.hash);
    assert.equal(browser.bytes, toHex(tx.bytes));
  });

  it('verifies RFC 8032 vectors and rejects what libsodium rejects', async () => {
    const p = await probe();
    const rfc = RFC8032_VECTORS.map((v) => ({
      publicKey: v.publicKey,
      message: v.message,
      signature: v.signature,
    }));
    assert.deepEqual(
      JSON.parse(await p.verify!(JSON.stringify(rfc))),
      rfc.map(() => true),
    );
    const cases = strictCases();
    const answers = JSON.parse(await p.verify!(JSON.stringify(cases)));
    assert.deepEqual(
      answers,
      cases.map((c) => c.strict),
    );
    assert.ok(
      cases.some((c) => c.lax && !c.strict),
      'cases a lax verifier accepts are among them',
    );
  });

  it('hashes the published BLAKE2b-256 vectors', async () => {
    const p = await probe();
    assert.equal(await p.blake2b256!(''), '0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8');
    assert.equal(
      await p.blake2b256!(toHex(new TextEncoder().encode('abc'))),
      'bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319',
    );
  });

  describe('against a served node', () => {
    let node: ServedTestNode;
    before(async () => {
      node = await startServedNode();
    });
    after(async () => node.stopAll());

    it('accepts (202) and commits a transaction built, signed and submitted from the bundle', async () => {
      const input = { url: node.url, account: node.admin.id, privateKey: node.admin.key.privateKeyText() };
      const p = await probe();
      const out = JSON.parse(await p.submitAndWait!(JSON.stringify(input)));
      assert.ok(out.seen.includes('POST /transaction 202'), out.seen.join(', '));
      assert.equal(out.done.hash, out.hash);
      assert.ok(out.done.blockHeight >= 1, 'committed in a block');
    });
  });
});
