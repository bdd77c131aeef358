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
// repository, and src/crypto/verify-worker.ts and src/webhooks/lane-thread.ts are entries of their own
// beside the chunks, where verify-pool.ts looks for `./verify-worker.js` and webhooks/lanes.ts for
// `./lane-thread.js`. Code splitting keeps the CLI's lazy command imports lazy.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

/** Entry points (paths from the root) that tests start with test/helpers/ts-entry.ts. */
export const TEST_BUNDLE_ENTRIES = [
  'test/helpers/torana-cli.ts',
  'test/crash/crash-child.ts',
  'test/fixtures/storage/crash-child.ts',
  'test/fixtures/iso20022/store-writer-fixture.ts',
];

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

/** Builds the bundle for this process and returns its directory (removed by `removeTestBundle`). */
export async function buildTestBundle(root) {
  removeStale(root);
  const outdir = join(root, 'node_modules', `.torana-test-${process.pid}`);
  const entryPoints = {
    'verify-worker': join(root, 'src/crypto/verify-worker.ts'),
    'lane-thread': join(root, 'src/webhooks/lane-thread.ts'),
  };
  for (const e of TEST_BUNDLE_ENTRIES) entryPoints[bundleEntryName(e)] = join(root, e);
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
  });
  return outdir;
}

export function removeTestBundle(outdir) {
  rmSync(outdir, { recursive: true, force: true });
}
