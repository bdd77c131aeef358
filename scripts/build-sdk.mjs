#!/usr/bin/env node
// Builds the SDK package (packages/sdk, `@torana/sdk`) from src/sdk: one ES module bundle of the SDK's
// own sources (codec, crypto, model, modules' client code) with the pure-JS crypto backend, its npm
// dependencies left as imports, and the signalling envelope's AEAD (XChaCha20-Poly1305) as a chunk loaded
// on first use; then the type declarations (tsc). Each codec constructor call is marked pure
// (scripts/sdk-pure.mjs), so an application's bundler drops the codecs its code never reaches; the modules'
// configuration sections are left out (the SDK reads no configuration; `withoutModuleConfig`), and so are
// the parts of the wire only the node reads, rejection meanings and instruction weights
// (`withoutServerWire`). Fails when the bundle would import anything but the package's declared
// dependencies (a Node built-in, a native addon, a server library).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';
import { pureCodecs, withoutModuleConfig, withoutServerWire } from './sdk-pure.mjs';

const root = new URL('..', import.meta.url).pathname;
const pkgDir = join(root, 'packages/sdk');
const dist = join(pkgDir, 'dist');
const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
const deps = Object.keys(pkg.dependencies ?? {});

rmSync(dist, { recursive: true, force: true });
const result = await build({
  entryPoints: { index: join(root, 'src/sdk/index.ts') },
  outdir: dist,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  // `torana-source` + `browser`: `#crypto-backend` is the pure-JS backend (src/crypto/backend-browser.ts)
  // in Node.js too; no sodium-native, no blst.
  conditions: ['torana-source', 'browser'],
  external: deps.flatMap((d) => [d, `${d}/*`]),
  metafile: true,
  write: false,
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [withoutServerWire(), pureCodecs(), withoutModuleConfig()],
});

const foreign = new Set();
for (const out of Object.values(result.metafile.outputs))
  for (const i of out.imports)
    if (i.external && !deps.some((d) => i.path === d || i.path.startsWith(`${d}/`))) foreign.add(i.path);
for (const input of Object.keys(result.metafile.inputs))
  if (input.includes('node_modules/')) foreign.add(input);
if (foreign.size > 0) {
  console.error(`build-sdk: the bundle reaches beyond the SDK's dependencies: ${[...foreign].join(', ')}`);
  process.exit(1);
}
for (const f of result.outputFiles) {
  mkdirSync(dirname(f.path), { recursive: true });
  writeFileSync(f.path, f.contents);
}

execFileSync(
  process.execPath,
  [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(pkgDir, 'tsconfig.json')],
  {
    stdio: 'inherit',
  },
);
console.log(`build-sdk: ${Object.keys(result.metafile.outputs).length} modules in ${dist}`);
