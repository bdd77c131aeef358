// The test files and the sources they import, compiled once per run into plain JavaScript
// (.cache/test-build/, git-ignored) so that every test file's process runs under plain node instead of
// `node --import tsx`. Under tsx each process sends every module it loads (about a thousand for a
// served node: ~500 sources, ~370 of typebox) through tsx's resolve and load hooks on the loader
// thread, one message at a time; that start-up, repeated by each of the ~330 processes of `npm test`,
// was most of the suite's time (docs/design/testing.md "Where the time goes").
//
// The tree mirrors the repository: `src/util/hex.ts` compiles to `.cache/test-build/src/util/hex.js`,
// so the sources' `./hex.js` imports resolve natively. What a test sees stays the repository:
// - `import.meta.url` (and `.dirname`, `.filename`) is the URL of the .ts source, so paths built from it
//   (`new URL('../../docs/errors.md', import.meta.url)`, a child's `./crash-child.ts`, the worker
//   `./verify-worker.ts` that startWorker starts under tsx) reach the same files as under tsx. A module
//   that imports its neighbours by a computed name uses `import(\`./${name}\`)` (resolved against the
//   compiled module), not a URL built from import.meta.url (which names the source).
// - a relative import of a file that is not a compiled source (scripts/*.mjs) is rewritten to that
//   file's absolute URL.
// - `#crypto-backend` resolves through the tree's own package.json: the `torana-source` condition picks
//   the compiled .js of the source the root package.json names.
// - inline source maps name the .ts sources: stack traces (node --enable-source-maps) point at them.
//
// The build is incremental: a file is compiled again only when its size or mtime changed (or the
// build's options did); outputs are written to a temporary name and renamed, so runs started at the
// same time in one worktree share the tree safely. Outputs whose source is gone are removed.
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { transform, version } from 'esbuild';

/** The tree's directory, from the root. */
export const TEST_BUILD_DIR = '.cache/test-build';

/** Folders of the root whose .ts files are compiled. */
const COMPILED = ['src', 'test'];

const OPTIONS = {
  loader: 'ts',
  format: 'esm',
  target: `node${process.versions.node}`,
  sourcemap: 'inline',
  sourcesContent: false,
  keepNames: true,
  tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true, useDefineForClassFields: true } },
};
/** Changes whenever a compiled file could differ for the same source (this script included). */
const BUILD_KEY = createHash('sha256')
  .update(JSON.stringify({ version, OPTIONS }))
  .update(readFileSync(new URL(import.meta.url)))
  .digest('hex')
  .slice(0, 16);

function walk(root, dir, out) {
  for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(root, p, out);
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** The compiled file of `file` (a .ts path from the root) in the tree `dir`. */
export function compiledPath(dir, file) {
  return join(dir, file.replace(/\.ts$/, '.js'));
}

const RELATIVE_SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"\n]+)\2/g;

/**
 * `source` with every relative import of a file that is not a compiled source (`./x.js` whose `./x.ts`
 * exists is one) turned into that file's absolute URL.
 */
export function rewriteImports(source, sourcePath) {
  return source.replace(RELATIVE_SPECIFIER, (whole, lead, quote, spec) => {
    const target = resolve(dirname(sourcePath), spec);
    if (target.endsWith('.js') && existsSync(`${target.slice(0, -3)}.ts`)) return whole;
    if (!existsSync(target)) return whole;
    return `${lead}${quote}${pathToFileURL(target).href}${quote}`;
  });
}

async function compile(root, file) {
  const path = join(root, file);
  const url = pathToFileURL(path).href;
  const source = rewriteImports(readFileSync(path, 'utf8'), path);
  const out = await transform(source, {
    ...OPTIONS,
    sourcefile: path,
    define: {
      'import.meta.url': JSON.stringify(url),
      'import.meta.filename': JSON.stringify(path),
      'import.meta.dirname': JSON.stringify(dirname(path)),
    },
  });
  return out.code;
}

function writeAtomic(path, text) {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

/** The tree's package.json: ESM, and `#crypto-backend` mapped onto the compiled sources. */
function treePackageJson(root) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const imports = {};
  for (const [name, target] of Object.entries(pkg.imports ?? {})) {
    const source = target['torana-source'];
    if (source === undefined) continue;
    const compiled =
      typeof source === 'string'
        ? source.replace(/\.ts$/, '.js')
        : Object.fromEntries(Object.entries(source).map(([c, p]) => [c, p.replace(/\.ts$/, '.js')]));
    imports[name] = { ...target, 'torana-source': compiled };
  }
  return `${JSON.stringify({ type: 'module', private: true, imports }, null, 2)}\n`;
}

/**
 * Brings the tree up to date with the sources and returns its directory and what was done:
 * `{ dir, compiled, removed, files, ms }`.
 */
export async function buildTestTree(root) {
  const started = performance.now();
  const dir = join(root, TEST_BUILD_DIR);
  const manifestPath = join(dir, 'manifest.json');
  let manifest = {};
  try {
    const m = JSON.parse(readFileSync(manifestPath, 'utf8'));
    if (m.key === BUILD_KEY) manifest = m.files;
  } catch {}
  const files = COMPILED.filter((d) => existsSync(join(root, d))).flatMap((d) => walk(root, d, []));
  const next = {};
  const stale = [];
  for (const f of files) {
    const st = statSync(join(root, f));
    const stamp = `${st.size}:${st.mtimeMs}`;
    next[f] = stamp;
    if (manifest[f] !== stamp || !existsSync(compiledPath(dir, f))) stale.push(f);
  }
  // Compiled in batches: esbuild's service compiles them in parallel.
  const BATCH = 64;
  for (let i = 0; i < stale.length; i += BATCH) {
    const batch = stale.slice(i, i + BATCH);
    const codes = await Promise.all(batch.map((f) => compile(root, f)));
    for (const [j, f] of batch.entries()) writeAtomic(compiledPath(dir, f), codes[j]);
  }
  let removed = 0;
  for (const f of Object.keys(manifest)) {
    if (next[f] === undefined) {
      rmSync(compiledPath(dir, f), { force: true });
      removed++;
    }
  }
  const pkg = treePackageJson(root);
  const pkgPath = join(dir, 'package.json');
  if (!existsSync(pkgPath) || readFileSync(pkgPath, 'utf8') !== pkg) writeAtomic(pkgPath, pkg);
  writeAtomic(manifestPath, `${JSON.stringify({ key: BUILD_KEY, files: next })}\n`);
  return { dir, compiled: stale.length, removed, files: files.length, ms: performance.now() - started };
}
