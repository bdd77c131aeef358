// The SDK in a browser bundle (issue 4: "Works in Node.js ≥ 20 and in a browser bundle"). esbuild
// bundles src/sdk/index.ts for the browser, resolving `#crypto-backend` through package.json's
// `imports` map with the `browser` condition (mapped from dist/ back to src/ as TypeScript does), and
// must find no Node built-in or native package in the graph. The bundle then runs in a node:vm
// context holding only browser-like globals, where it must produce byte-for-byte the transaction the
// Node SDK (libsodium backend) produces, verify RFC 8032 vectors with libsodium's strictness, hash a
// published BLAKE2b-256 vector, and get a transaction accepted and committed by a served node.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { gzipSync } from 'node:zlib';
import { type BuildOptions, build, type Plugin, transform } from 'esbuild';
import { RFC8032_VECTORS, strictCases } from '../../src/crypto/ed25519-fixture.js';
import * as nodeSdk from '../../src/sdk/index.js';
import { toHex } from '../../src/util/hex.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';

const ROOT = new URL('../../', import.meta.url);
const rootPath = fileURLToPath(ROOT);
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

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/**
 * Resolves our own `#` imports with the `browser` condition of package.json (dist/x.js → src/x.ts,
 * the mapping tsc applies from outDir to rootDir), and records any Node-only import instead of failing
 * on the first, so the test can list them all.
 */
function browserResolution(nodeOnly: string[]): Plugin {
  const pkg = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as {
    imports?: Record<string, Record<string, string>>;
  };
  return {
    name: 'torana-browser-resolution',
    setup(b) {
      b.onResolve({ filter: /^#/ }, (args) => {
        if (args.importer.includes('/node_modules/')) return undefined;
        const target = pkg.imports?.[args.path]?.browser;
        const m = target === undefined ? null : /^\.\/dist\/(.+)\.js$/.exec(target);
        if (m === null)
          return { errors: [{ text: `package.json "imports" has no browser dist target for ${args.path}` }] };
        return { path: fileURLToPath(new URL(`src/${m[1]}.ts`, ROOT)) };
      });
      b.onResolve({ filter: /^[^./#]/ }, (args) => {
        if (!isBuiltin(args.path) && !NODE_ONLY_PACKAGES.has(packageName(args.path))) return undefined;
        nodeOnly.push(`${args.importer.replace(rootPath, '')} imports ${args.path}`);
        return { path: args.path, external: true };
      });
    },
  };
}

async function bundle(entry: string, extra: BuildOptions = {}) {
  const nodeOnly: string[] = [];
  const result = await build({
    entryPoints: [fileURLToPath(new URL(entry, ROOT))],
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'esm',
    conditions: ['browser'],
    metafile: true,
    logLevel: 'silent',
    plugins: [browserResolution(nodeOnly)],
    ...extra,
  });
  const text = result.outputFiles?.[0]?.text;
  assert.ok(
    text !== undefined && result.metafile !== undefined,
    'esbuild returned the bundle and its metafile',
  );
  return { text, inputs: Object.keys(result.metafile.inputs), nodeOnly };
}

/** Browser-like globals only. TextEncoder wraps the host's so its bytes belong to the context's realm. */
function browserContext(): vm.Context {
  const hostEncoder = new TextEncoder();
  const context = vm.createContext({
    crypto: globalThis.crypto,
    TextDecoder,
    hostEncode: (s: string) => hostEncoder.encode(s),
    fetch: globalThis.fetch.bind(globalThis),
    URL,
    URLSearchParams,
    AbortController,
    AbortSignal,
    Headers,
    setTimeout,
    clearTimeout,
    queueMicrotask,
    console,
  });
  vm.runInContext(
    `globalThis.TextEncoder = class TextEncoder {
       get encoding() { return 'utf-8'; }
       encode(s = '') { return new Uint8Array(hostEncode(String(s))); }
       encodeInto(s, dest) {
         const b = hostEncode(String(s));
         if (b.length > dest.length) throw new Error('encodeInto: partial writes are not modelled here');
         dest.set(b);
         return { read: String(s).length, written: b.length };
       }
     };`,
    context,
  );
  return context;
}

// Runs inside the context (plain JavaScript: it is evaluated there, not compiled by tsx). Takes and
// answers JSON text so that no object crosses between realms.
const PROBE = `
const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
const bytes = (h) => Uint8Array.from(h.match(/../g) ?? [], (x) => parseInt(x, 16));
globalThis.probe = {
  env: () => JSON.stringify({
    require: typeof require, process: typeof process, Buffer: typeof Buffer,
    backend: ToranaSdk.cryptoBackendInfo(),
  }),
  signTx: (json) => {
    const input = JSON.parse(json);
    const sdk = ToranaSdk;
    const ix = sdk.instructions;
    const key = sdk.importKeyPair(input.seed);
    const account = sdk.accountOf(key, 'wonderland');
    const tx = new sdk.TransactionBuilder(input.chainId, account)
      .add(ix.registerDomain('wonderland', { motto: 'curiouser' }), ix.registerAccount(account))
      .add(ix.mintAsset('rose#wonderland', account, '12.50'), ix.log('from a browser'))
      .metadata('note', { n: 1, tags: ['a', 'b'] })
      .ttlMs(60000).nonce(input.nonce).createdAtMs(input.createdAtMs)
      .sign(key);
    return JSON.stringify({ publicKey: key.publicKeyText(), bytes: hex(tx.bytes), hash: tx.hash });
  },
  verify: (json) => JSON.stringify(JSON.parse(json).map((c) =>
    ToranaSdk.verifySignature({ algorithm: 'ed25519', bytes: bytes(c.publicKey) }, bytes(c.message), bytes(c.signature)))),
  blake2b256: (h) => hex(ToranaHash.blake2b256(bytes(h))),
  submitAndWait: async (json) => {
    const input = JSON.parse(json);
    const sdk = ToranaSdk;
    const seen = [];
    const recording = (url, init) => fetch(url, init).then((res) => {
      seen.push((init?.method ?? 'GET') + ' ' + new URL(url).pathname + ' ' + res.status);
      return res;
    });
    const signer = sdk.importKeyPair(input.privateKey);
    const client = new sdk.ToranaClient({ url: input.url, account: input.account, signer, fetch: recording });
    const tx = (await client.transaction()).add(sdk.instructions.registerDomain('browserland')).sign(signer);
    const done = await client.submitAndWait(tx, { timeoutMs: 20000 });
    return JSON.stringify({ hash: tx.hash, done, seen });
  },
};`;

/** Loads the bundles into a fresh browser-like context and answers the probe defined there. */
async function loadProbe(bundles: ReadonlyArray<readonly [{ text: string }, string]>) {
  const context = browserContext();
  // IIFE form, because vm runs scripts; the conversion also fails on a top-level await.
  for (const [b, name] of bundles) {
    vm.runInContext((await transform(b.text, { format: 'iife', globalName: name })).code, context);
  }
  vm.runInContext(PROBE, context);
  return vm.runInContext('probe', context) as Record<string, (arg: string) => string | Promise<string>>;
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
