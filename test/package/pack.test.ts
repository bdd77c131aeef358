// torana as another project gets it: `npm pack`
// (a packed torana had no dist/), install the tarball into a scratch project, run the CLI and the SDK
// from it, and bundle the SDK for the browser with plain esbuild (no plugin) from the tarball install
// and from a path install (`npm install /path/to/torana`: a symlink, where torana's own tsconfig
// `paths` used to pull the Node backend into the bundle). Each bundle signs a transaction, in a
// browser-like vm context, that a served node commits. The install uses npm's cache
// (`--prefer-offline`); dist/ is the one `npm ci` built (prepare), packed with --ignore-scripts.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { loadProbe } from '../helpers/browser-vm.js';
import { ROOT } from '../helpers/run-cli.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';

const run = promisify(execFile);
/** What a user's shell has: no `torana-source` condition (scripts/test.mjs sets it for our sources). */
const USER_ENV = { ...process.env, NODE_OPTIONS: '' };
const NPM_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'];

async function scratchProject(parent: string, name: string, install: string): Promise<string> {
  const dir = join(parent, name);
  await mkdir(dir);
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }));
  await run('npm', ['install', ...NPM_FLAGS, install], { cwd: dir, env: USER_ENV, timeout: 180_000 });
  await writeFile(join(dir, 'sdk-entry.mjs'), "export * from 'torana/sdk';\n");
  return dir;
}

/** Plain esbuild for the browser, as a user's build would call it: no plugin, no conditions. */
async function bundleFrom(project: string) {
  const result = await build({
    entryPoints: [join(project, 'sdk-entry.mjs')],
    absWorkingDir: project,
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'esm',
    metafile: true,
    logLevel: 'silent',
  });
  return { text: result.outputFiles[0]!.text, inputs: Object.keys(result.metafile.inputs) };
}

describe('the packed package', () => {
  let t: ServedTestNode;
  let work: string;
  let files: string[];
  let fromTarball: string;
  let fromPath: string;
  let domains = 0;
  before(async () => {
    t = await startServedNode();
    work = await mkdtemp(join(tmpdir(), 'torana-pack-'));
    const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {
      cwd: ROOT,
      env: USER_ENV,
    });
    const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
    files = info!.files.map((f) => f.path);
    fromTarball = await scratchProject(work, 'from-tarball', join(work, info!.filename));
    fromPath = await scratchProject(work, 'from-path', ROOT);
  });
  after(async () => {
    await t.stopAll();
    await rm(work, { recursive: true, force: true });
  });

  it('ships dist/ and bin/, not the sources or tests', async () => {
    for (const f of [
      'dist/sdk/index.js',
      'dist/sdk/index.d.ts',
      'dist/cli/main.js',
      'bin/torana.js',
      'dist/indexer/migrations/1700000000000_schema.sql',
    ])
      assert.ok(files.includes(f), `${f} is in the tarball`);
    assert.deepEqual(
      files.filter((f) => /^(src|test|bench|scripts)\//.test(f) || f.endsWith('.tsbuildinfo')),
      [],
    );
    // Every target of "exports" is shipped (the root export used to name a dist/index.js that never existed).
    const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {
      exports: Record<string, string>;
    };
    for (const target of Object.values(pkg.exports))
      assert.ok(files.includes(target.slice(2)), `${target} is shipped`);
  });

  it('runs the installed CLI: --help, and status against a node', async () => {
    const bin = join(fromTarball, 'node_modules', '.bin', 'torana');
    const help = await run(bin, ['--help'], { env: USER_ENV });
    assert.match(help.stdout, /Usage: torana/);
    const status = await run(bin, ['status', '--json', '--url', t.url, '--dir', fromTarball], {
      env: USER_ENV,
    });
    assert.ok((JSON.parse(status.stdout) as { blocks: number }).blocks >= 1);
  });

  it('runs the installed SDK in Node (native backend) and commits a transaction', async () => {
    const script = join(fromTarball, 'sdk.mjs');
    await writeFile(
      script,
      `import { ToranaClient, cryptoBackendInfo, importKeyPair, instructions } from 'torana/sdk';
import * as root from 'torana';
if (root.ToranaClient !== ToranaClient) throw new Error('"torana" and "torana/sdk" differ');
const signer = importKeyPair(process.env.KEY);
const client = new ToranaClient({ url: process.env.URL, account: process.env.ACCOUNT, signer });
const tx = (await client.transaction()).add(instructions.registerDomain('packland')).sign(signer);
const done = await client.submitAndWait(tx, { timeoutMs: 20000 });
console.log(JSON.stringify({ backend: cryptoBackendInfo().platform, hash: tx.hash, done: done.hash }));
`,
    );
    const out = await run(process.execPath, [script], {
      cwd: fromTarball,
      env: { ...USER_ENV, URL: t.url, ACCOUNT: t.admin.id, KEY: t.admin.key.privateKeyText() },
    });
    const r = JSON.parse(out.stdout) as { backend: string; hash: string; done: string };
    assert.equal(r.backend, 'node');
    assert.equal(r.done, r.hash);
  });

  it('ships the circuit artifacts and the installed torana/sdk/zk finds them beside itself', async () => {
    for (const c of ['roster', 'usage', 'note_spend'])
      for (const ext of ['wasm', 'zkey', 'vkey.json'])
        assert.ok(files.includes(`zk/artifacts/${c}.${ext}`), `zk/artifacts/${c}.${ext} is in the tarball`);
    const script = join(fromTarball, 'zk.mjs');
    await writeFile(
      script,
      `import { existsSync } from 'node:fs';
import { packagedArtifacts } from 'torana/sdk/zk';
const a = packagedArtifacts('note_spend');
console.log(JSON.stringify({ wasm: existsSync(a.wasm), zkey: existsSync(a.zkey), at: a.wasm }));
`,
    );
    const out = JSON.parse(
      (await run(process.execPath, [script], { cwd: fromTarball, env: USER_ENV })).stdout,
    );
    assert.deepEqual([out.wasm, out.zkey], [true, true], out.at);
    assert.match(out.at, /node_modules\/torana\/zk\/artifacts\/note_spend\.wasm$/);
  });

  for (const install of ['tarball', 'path'] as const) {
    it(`bundles the SDK from a ${install} install with plain esbuild; the bundle's transaction commits`, async () => {
      const bundle = await bundleFrom(install === 'tarball' ? fromTarball : fromPath);
      assert.ok(
        bundle.inputs.some((f) => f.endsWith('dist/crypto/backend-browser.js')),
        'browser backend',
      );
      assert.deepEqual(
        bundle.inputs.filter((f) => /backend-node|sodium-native|blst|\/src\//.test(f)),
        [],
        'no Node backend, native addon or source file in the bundle',
      );
      const probe = await loadProbe([[bundle, 'ToranaSdk']]);
      const env = JSON.parse(await probe.env!(''));
      assert.equal(env.backend.platform, 'browser');
      const input = {
        url: t.url,
        account: t.admin.id,
        privateKey: t.admin.key.privateKeyText(),
        domain: `bundle${++domains}`,
      };
      const out = JSON.parse(await probe.submitAndWait!(JSON.stringify(input)));
      assert.ok(out.seen.includes('POST /transaction 202'), out.seen.join(', '));
      assert.equal(out.done.hash, out.hash);
    });
  }
});
