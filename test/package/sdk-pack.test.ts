// The SDK package (`@torana/sdk`, packages/sdk) as an application gets it: build it (scripts/build-sdk.mjs),
// `npm pack`, install the tarball alone into a scratch project (npm's cache, `--prefer-offline`), and check
// what the install brought: few packages, no native module, no install script. Then run the installed SDK
// in Node.js against a served node (a transaction commits), and bundle the README's SDK example for the
// browser with esbuild from the install, printing its size: the code a page loads at startup must stay
// within 60 KiB gzip (a size, not a timing bound): 58.9 KiB measured, one file; 62.2 KiB (two files)
// before the package left the node's rejection meanings and weights out and split off only the signalling
// AEAD, 65.2 KiB before it left the modules' configuration sections out (`node scripts/sdk-startup.mjs`
// lists the contributors). The package marks its codec constructions pure, so the page's bundler drops the
// codecs (module views, rows) the example never reaches.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { ROOT } from '../helpers/run-cli.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';

const run = promisify(execFile);
const USER_ENV = { ...process.env, NODE_OPTIONS: '' };
const NPM_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'];
const PACKAGES_MAX = 15;
const STARTUP_GZIP_MAX = 60 * 1024;
/** What a client never needs: the node's storage, server, native crypto and prover. */
const SERVER_ONLY =
  /^(lmdb|fastify|@fastify\/.*|sodium-native|libsodium.*|snarkjs|wasmcurves|ffjavascript|@chainsafe\/.*|pino|prom-client|ws)$/;

async function walk(dir: string, out: string[] = []): Promise<string[]> {
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) await walk(p, out);
    else out.push(p);
  }
  return out;
}

/** The README's first TypeScript example in its "SDK" section. */
async function readmeExample(): Promise<string> {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## SDK\n'));
  const m = /```ts\n([\s\S]*?)```/.exec(section);
  assert.ok(m, 'the SDK section has a ts example');
  return m[1]!;
}

describe('the SDK package alone', () => {
  let t: ServedTestNode;
  let work: string;
  let project: string;
  before(async () => {
    await run(process.execPath, [join(ROOT, 'scripts/build-sdk.mjs')], {
      cwd: ROOT,
      env: USER_ENV,
      timeout: 600_000,
    });
    t = await startServedNode();
    work = await mkdtemp(join(tmpdir(), 'torana-sdkpack-'));
    const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {
      cwd: join(ROOT, 'packages/sdk'),
      env: USER_ENV,
    });
    const [info] = JSON.parse(packed.stdout) as { filename: string }[];
    project = join(work, 'app');
    await mkdir(project);
    await writeFile(
      join(project, 'package.json'),
      JSON.stringify({ name: 'app', private: true, type: 'module' }),
    );
    await run('npm', ['install', ...NPM_FLAGS, join(work, info!.filename)], {
      cwd: project,
      env: USER_ENV,
      timeout: 300_000,
    });
  });
  after(async () => {
    await t?.stopAll();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it(`installs at most ${PACKAGES_MAX} packages, none of them native, server-only or with an install script`, async () => {
    const lock = JSON.parse(await readFile(join(project, 'node_modules/.package-lock.json'), 'utf8')) as {
      packages: Record<string, { hasInstallScript?: boolean }>;
    };
    const names = Object.keys(lock.packages).map((p) => p.replace(/^.*node_modules\//, ''));
    console.log(`# @torana/sdk installs ${names.length} packages: ${names.join(', ')}`);
    assert.ok(names.length <= PACKAGES_MAX, `${names.length} packages`);
    assert.deepEqual(
      names.filter((n) => SERVER_ONLY.test(n)),
      [],
    );
    assert.deepEqual(
      Object.entries(lock.packages)
        .filter(([, p]) => p.hasInstallScript === true)
        .map(([n]) => n),
      [],
    );
    const files = await walk(join(project, 'node_modules'));
    assert.deepEqual(
      files.filter((f) => f.endsWith('binding.gyp') || f.endsWith('.node')),
      [],
      'no native addon',
    );
  });

  it('runs the installed SDK in Node.js (pure-JS crypto) and commits a transaction', async () => {
    const script = join(project, 'sdk.mjs');
    await writeFile(
      script,
      `import { ToranaClient, cryptoBackendInfo, importKeyPair, instructions } from '@torana/sdk';
const signer = importKeyPair(process.env.KEY);
const client = new ToranaClient({ url: process.env.URL, account: process.env.ACCOUNT, signer });
const tx = (await client.transaction()).add(instructions.registerDomain('sdkpackland')).sign(signer);
const done = await client.submitAndWait(tx, { timeoutMs: 20000 });
console.log(JSON.stringify({ ed25519: cryptoBackendInfo().ed25519, hash: tx.hash, done: done.hash }));
`,
    );
    const out = await run(process.execPath, [script], {
      cwd: project,
      env: { ...USER_ENV, URL: t.url, ACCOUNT: t.admin.id, KEY: t.admin.key.privateKeyText() },
    });
    const r = JSON.parse(out.stdout) as { ed25519: string; hash: string; done: string };
    assert.match(r.ed25519, /noble/);
    assert.equal(r.done, r.hash);
  });

  it('type-checks an application against the installed declarations (skipLibCheck, as tsc --init sets)', async () => {
    await writeFile(
      join(project, 'typed.ts'),
      `import { ToranaClient, generateKeyPair, instructions as ix, type Event } from '@torana/sdk';
const key = generateKeyPair();
const client = new ToranaClient({ url: 'http://127.0.0.1:8080', account: \`\${key.publicKeyText()}@system\`, signer: key });
export const tx = client.build([ix.registerDomain('wonderland')]);
export async function firstId(): Promise<number> {
  for await (const { id, event } of client.events({ since: 'genesis' })) {
    const e: Event = event;
    return e.kind === 'Transaction' ? id : -id;
  }
  return 0;
}
// @ts-expect-error: the declarations are real types, not any
export const wrong: number = ix.registerDomain('x');
`,
    );
    await writeFile(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          skipLibCheck: true,
          noEmit: true,
          lib: ['ES2023', 'DOM'],
          types: [],
        },
        files: ['typed.ts'],
      }),
    );
    await run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], {
      cwd: project,
      env: USER_ENV,
    });
  });

  it('type-checks an application against the declarations with skipLibCheck off and no server package installed', async () => {
    // The published declarations must stand alone: no import of fastify, lmdb, prom-client, typebox,
    // commander or a node: module (the scratch project has only the SDK and its dependencies).
    const types = await walk(join(project, 'node_modules/@torana/sdk/dist/types'));
    const foreign = new Set<string>();
    for (const f of types.filter((p) => p.endsWith('.d.ts')))
      for (const m of (await readFile(f, 'utf8')).matchAll(/(?:from |import\()['"]([^'"]+)['"]/g))
        if (!m[1]!.startsWith('.') && !/^(@noble\/|eventsource-parser)/.test(m[1]!)) foreign.add(m[1]!);
    console.log(
      `# @torana/sdk ships ${types.length} declaration files; foreign imports: ${[...foreign].join(', ') || 'none'}`,
    );
    await writeFile(
      join(project, 'strict.ts'),
      `import { ToranaClient, generateKeyPair, instructions as ix } from '@torana/sdk';
const key = generateKeyPair();
const client = new ToranaClient({ url: 'http://127.0.0.1:8080', account: \`\${key.publicKeyText()}@system\`, signer: key });
export const tx = client.build([ix.registerDomain('wonderland')]);
`,
    );
    await writeFile(
      join(project, 'tsconfig.strict.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          skipLibCheck: false,
          noEmit: true,
          lib: ['ES2023', 'DOM'],
          types: [],
        },
        files: ['strict.ts'],
      }),
    );
    const r = await run(
      process.execPath,
      [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.strict.json'],
      { cwd: project, env: USER_ENV },
    ).catch((e: { stdout?: string }) => ({ stdout: e.stdout ?? String(e), failed: true }));
    assert.ok(
      !('failed' in r),
      `tsc with skipLibCheck off:\n${r.stdout.split('\n').slice(0, 30).join('\n')}`,
    );
    assert.deepEqual([...foreign], []);
  });

  it(`bundles the README example for the browser within ${STARTUP_GZIP_MAX / 1024} KiB gzip at startup`, async () => {
    const example = await readmeExample();
    assert.match(example, /from '@torana\/sdk'/, 'the README example imports the SDK package');
    await writeFile(join(project, 'example.ts'), example);
    const result = await build({
      entryPoints: [join(project, 'example.ts')],
      absWorkingDir: project,
      outdir: join(project, 'out'),
      bundle: true,
      splitting: true,
      minify: true,
      write: false,
      platform: 'browser',
      format: 'esm',
      metafile: true,
      logLevel: 'silent',
    });
    assert.deepEqual(
      Object.keys(result.metafile.inputs).filter((f) => /sodium|blst|lmdb|fastify|snarkjs/.test(f)),
      [],
    );
    const gz = new Map(result.outputFiles.map((f) => [f.path, gzipSync(f.contents).length]));
    const outputs = result.metafile.outputs;
    const entry = Object.keys(outputs).find((o) => outputs[o]!.entryPoint !== undefined)!;
    const startup = new Set([entry]);
    for (const o of startup)
      for (const i of outputs[o]!.imports) if (i.kind === 'import-statement') startup.add(i.path);
    const size = (o: string) => gz.get(join(project, o)) ?? 0;
    const startupGzip = [...startup].reduce((n, o) => n + size(o), 0);
    const totalGzip = Object.keys(outputs).reduce((n, o) => n + size(o), 0);
    console.log(
      `# README example, esbuild --minify for the browser: ${(startupGzip / 1024).toFixed(1)} KiB gzip at startup ` +
        `(${startup.size} files), ${(totalGzip / 1024).toFixed(1)} KiB with the chunks loaded on first use`,
    );
    assert.ok(startupGzip > 10 * 1024, 'the bundle holds the SDK');
    const pure = (await readFile(join(project, 'node_modules/@torana/sdk/dist/index.js'), 'utf8')).split(
      '/* @__PURE__ */',
    ).length;
    assert.ok(pure > 100, `the package marks its codec constructions pure (${pure - 1} marks)`);
    assert.ok(startupGzip <= STARTUP_GZIP_MAX, `${startupGzip} bytes gzip at startup`);
  });
});
