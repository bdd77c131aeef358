// A browser-like JavaScript context for bundles of the SDK (node:vm with browser globals only), and
// the probe the bundle tests call inside it: sign a transaction, verify, hash, submit and wait.
import vm from 'node:vm';
import { transform } from 'esbuild';

/** Browser-like globals only. TextEncoder wraps the host's so its bytes belong to the context's realm. */
export function browserContext(): vm.Context {
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
    const tx = (await client.transaction()).add(sdk.instructions.registerDomain(input.domain ?? 'browserland')).sign(signer);
    const done = await client.submitAndWait(tx, { timeoutMs: 20000 });
    return JSON.stringify({ hash: tx.hash, done, seen });
  },
};`;

/** Loads the bundles into a fresh browser-like context and answers the probe defined there. */
export async function loadProbe(bundles: ReadonlyArray<readonly [{ text: string }, string]>) {
  const context = browserContext();
  // IIFE form, because vm runs scripts; the conversion also fails on a top-level await.
  for (const [b, name] of bundles) {
    vm.runInContext((await transform(b.text, { format: 'iife', globalName: name })).code, context);
  }
  vm.runInContext(PROBE, context);
  return vm.runInContext('probe', context) as Record<string, (arg: string) => string | Promise<string>>;
}
