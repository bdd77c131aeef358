// Test helper: the `node` arguments that run one of this repository's TypeScript entry points in a child
// process. Under `npm test` (scripts/test.mjs) the entry runs from the bundle built from the sources at
// the start of the run (scripts/test-bundle.mjs: the same code, 2–3× faster to start); otherwise, or for
// an entry not in the bundle, it runs from source under tsx.

import { existsSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';

export const ROOT = new URL('../..', import.meta.url).pathname;

/** Names TEST_ENTRY_BUNDLE's directory, set by scripts/test.mjs for the run. */
export const TEST_BUNDLE_ENV = 'TEST_ENTRY_BUNDLE';

/** `file`: a path from the root or an absolute path. */
export function tsEntryArgs(file: string): string[] {
  const dir = process.env[TEST_BUNDLE_ENV];
  if (dir !== undefined && dir !== '') {
    const path = isAbsolute(file) ? relative(ROOT, file) : file;
    // The same naming as bundleEntryName in scripts/test-bundle.mjs.
    const bundled = join(dir, `${path.replace(/\.ts$/, '').replaceAll('/', '__')}.js`);
    if (existsSync(bundled)) return [bundled];
  }
  return ['--import', 'tsx', file];
}
