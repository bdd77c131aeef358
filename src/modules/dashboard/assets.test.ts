import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { BUILT_ASSETS_DIR, packageRoot } from './assets.js';

describe('where the built dashboard is looked for', () => {
  it('is the package root’s dist/dashboard/www/, from a file at any depth below it', () => {
    const root = mkdtempSync(join(tmpdir(), 'torana-pkg-'));
    try {
      writeFileSync(join(root, 'package.json'), '{}');
      // The sources, the build and the test runner's bundle sit at different depths.
      for (const at of ['src/modules/dashboard', 'dist/modules/dashboard', 'node_modules/.torana-test-1']) {
        mkdirSync(join(root, at), { recursive: true });
        assert.equal(packageRoot(pathToFileURL(join(root, at, 'assets.js')).href), root, at);
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
    const here = new URL('../../../', import.meta.url).pathname;
    assert.equal(BUILT_ASSETS_DIR, join(here, 'dist/dashboard/www/'));
  });
});
