#!/usr/bin/env node
// What the SDK's startup code holds: bundles the README's SDK example for the browser from the sources
// (the build options of test/package/sdk-pack.test.ts — esbuild, minified, chunks split — with the
// `torana-source` and `browser` conditions and the plugins scripts/build-sdk.mjs uses, so each byte is
// traced to its source file), prints the startup and total gzip sizes and lists the largest contributors to the
// startup files: by folder (a ledger module's folder, a core folder, an npm package) and by file. A
// contributor's share is its minified bytes' share of its output file times that file's gzip size (an
// estimate: gzip does not split exactly). `node scripts/sdk-startup.mjs [--top N]`; prints only.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { pureCodecs, withoutModuleConfig, withoutServerWire } from './sdk-pure.mjs';

const root = new URL('..', import.meta.url).pathname;
const topAt = process.argv.indexOf('--top');
const top = topAt > 0 ? Number(process.argv[topAt + 1]) : 25;

const readme = readFileSync(join(root, 'README.md'), 'utf8');
const example = /```ts\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf('\n## SDK\n')))?.[1];
if (example === undefined) throw new Error('README.md: no ts example in the "SDK" section');
const work = mkdtempSync(join(tmpdir(), 'torana-sdk-startup-'));
try {
  const entry = join(work, 'example.ts');
  writeFileSync(entry, example.replaceAll("'@torana/sdk'", `'${join(root, 'src/sdk/index.ts')}'`));
  const result = await build({
    entryPoints: [entry],
    absWorkingDir: root,
    outdir: join(work, 'out'),
    bundle: true,
    splitting: true,
    minify: true,
    write: false,
    platform: 'browser',
    format: 'esm',
    conditions: ['torana-source', 'browser'],
    nodePaths: [join(root, 'node_modules')],
    metafile: true,
    logLevel: 'warning',
    plugins: process.env.NO_PURE ? [] : [withoutServerWire(), pureCodecs(), withoutModuleConfig()],
  });
  const outputs = result.metafile.outputs;
  const gz = new Map(result.outputFiles.map((f) => [f.path, gzipSync(f.contents).length]));
  const size = (o) => gz.get(join(root, o)) ?? 0;
  const first = Object.keys(outputs).find((o) => outputs[o].entryPoint !== undefined);
  const startup = new Set([first]);
  for (const o of startup)
    for (const i of outputs[o].imports) if (i.kind === 'import-statement') startup.add(i.path);
  const startupGzip = [...startup].reduce((n, o) => n + size(o), 0);
  const totalGzip = Object.keys(outputs).reduce((n, o) => n + size(o), 0);
  const kib = (n) => `${(n / 1024).toFixed(2)} KiB`;
  console.log(
    `startup ${kib(startupGzip)} gzip (${startup.size} files), ${kib(totalGzip)} with the chunks loaded on first use`,
  );
  const byFile = new Map();
  const byFolder = new Map();
  for (const o of startup) {
    const inputs = Object.entries(outputs[o].inputs);
    const raw = inputs.reduce((n, [, i]) => n + i.bytesInOutput, 0);
    for (const [file, i] of inputs) {
      const share = raw === 0 ? 0 : (i.bytesInOutput / raw) * size(o);
      const name = file.includes('node_modules/') ? file.replace(/^.*node_modules\//, '') : file;
      const folder = file.includes('node_modules/')
        ? name.replace(/^((@[^/]+\/)?[^/]+).*$/, '$1')
        : name.replace(/^src\/(modules\/[^/]+|[^/]+)\/.*$/, 'src/$1');
      byFile.set(name, (byFile.get(name) ?? 0) + share);
      byFolder.set(folder, (byFolder.get(folder) ?? 0) + share);
    }
  }
  const list = (m) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, v]) => `${kib(v).padStart(10)} ${((100 * v) / startupGzip).toFixed(1).padStart(5)}%  ${k}`)
      .join('\n');
  console.log(`\nby folder:\n${list(byFolder)}\n\nby file:\n${list(byFile)}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
