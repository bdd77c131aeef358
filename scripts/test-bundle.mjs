// The entry points that tests run as child processes (the CLI, crash children, writers), bundled from
// the sources once per `npm test` run. Under `node --import tsx` every child spends most of its start-up
// in tsx's loader thread, resolving and loading hundreds of modules one message at a time (seconds per
// process on a loaded 2-core machine); the bundle starts 2–3× faster. It is the same source, built
// afresh on every run, so it cannot be stale. test/helpers/ts-entry.ts picks it when TEST_ENTRY_BUNDLE
// names its directory (not a TORANA_ name: the node refuses unknown TORANA_ variables), and runs the .ts
// entry under tsx otherwise (a test file run on its own).
//
// Layout: the directory sits two levels below the root (node_modules/.torana-test-<pid>/), like
// src/<folder>/, so that the sources' `new URL('../../zk/…', import.meta.url)` paths still reach the
// repository. A thread's module (src/crypto/verify-worker.ts, a module's delivery thread) is an entry of
// its own beside the chunks, where its starter looks for `./<name>.js`: every source file that picks its
// thread with `import.meta.url.endsWith('.ts') ? './<name>.ts' : './<name>.js'` is found by
// threadEntries(), so a new thread needs no change here. Code splitting keeps the CLI's lazy command
// imports lazy.
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';

/** The child processes under test/fixtures/ (by convention a file named `*-child.ts`), in path order. */
function fixtureChildren(root) {
  const out = [];
  const dir = join(root, 'test/fixtures');
  for (const sub of readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory())) {
    for (const name of readdirSync(join(dir, sub.name))) {
      if (name.endsWith('-child.ts')) out.push(`test/fixtures/${sub.name}/${name}`);
    }
  }
  return out.sort();
}

/** Entry points (paths from the root) that tests start with test/helpers/ts-entry.ts. */
export function testBundleEntries(root) {
  return ['test/helpers/torana-cli.ts', 'test/crash/crash-child.ts', ...fixtureChildren(root)];
}

/** The bundle's name for an entry: its path with `/` as `__`, without `.ts` (test/helpers/ts-entry.ts). */
export function bundleEntryName(path) {
  return path.replace(/\.ts$/, '').replaceAll('/', '__');
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

/** Removes the bundles of earlier runs whose process is gone (a run that was killed leaves its own). */
function removeStale(root) {
  const dir = join(root, 'node_modules');
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    const m = /^\.torana-test-(\d+)$/.exec(name);
    if (m && !alive(Number(m[1]))) rmSync(join(dir, name), { recursive: true, force: true });
  }
}

const THREAD_PICK = /\?\s*'\.\/([\w-]+)\.ts'\s*:\s*'\.\/\1\.js'/g;

/** `{name: path}` of the thread modules the sources start (see the layout note above). */
export function threadEntries(root) {
  const entries = {};
  const visit = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) visit(p);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts'))
        for (const m of readFileSync(p, 'utf8').matchAll(THREAD_PICK)) {
          const path = join(dirname(p), `${m[1]}.ts`);
          if (entries[m[1]] !== undefined && entries[m[1]] !== path)
            throw new Error(`test bundle: two thread modules named ${m[1]}: ${entries[m[1]]}, ${path}`);
          entries[m[1]] = path;
        }
    }
  };
  visit(join(root, 'src'));
  return entries;
}

const CONVENTION_IMPORT = /import\(`\.\/\$\{([^}`]+)\}\/([\w-]+)\.js`\)/g;
const FOLDER_SCAN = /\bmoduleFolders\('([\w-]+)'\)/g;

/**
 * src/modules/load.ts and commands.ts import each module's descriptor and commands by a computed path
 * (`./${name}/descriptor.js`, so that they name no module). esbuild cannot map such a `.js` pattern onto
 * the `.ts` sources, so in the bundle each becomes one static import per module folder that has the file;
 * a scan of the module folders (`moduleFolders('commands')`) becomes the list it finds now.
 */
function moduleConventionPlugin(root) {
  return {
    name: 'module-convention-imports',
    setup(b) {
      b.onLoad({ filter: /[\\/]src[\\/]modules[\\/][\w-]+\.ts$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        if (text.match(CONVENTION_IMPORT) === null) return undefined;
        const dir = join(root, 'src', 'modules');
        const folders = readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory());
        const having = (file) =>
          folders.filter((d) => existsSync(join(dir, d.name, `${file}.ts`))).map((d) => d.name);
        const scanned = text.replace(FOLDER_SCAN, (_, file) => JSON.stringify(having(file).sort()));
        const contents = scanned.replace(CONVENTION_IMPORT, (_, expr, file) => {
          const cases = folders
            .filter((d) => existsSync(join(dir, d.name, `${file}.ts`)))
            .map((d) => `case '${d.name}': return import('./${d.name}/${file}.js');`)
            .join(' ');
          return `((n) => { switch (n) { ${cases} default: return Promise.reject(new Error(\`no src/modules/\${n}/${file}.ts\`)); } })(${expr})`;
        });
        return { contents, loader: 'ts' };
      });
    },
  };
}

/** Builds the bundle for this process and returns its directory (removed by `removeTestBundle`). */
export async function buildTestBundle(root) {
  removeStale(root);
  const outdir = join(root, 'node_modules', `.torana-test-${process.pid}`);
  const entryPoints = threadEntries(root);
  for (const e of testBundleEntries(root)) entryPoints[bundleEntryName(e)] = join(root, e);
  await build({
    entryPoints,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    conditions: ['torana-source'],
    outdir,
    logLevel: 'warning',
    plugins: [moduleConventionPlugin(root)],
  });
  return outdir;
}

export function removeTestBundle(outdir) {
  rmSync(outdir, { recursive: true, force: true });
}
