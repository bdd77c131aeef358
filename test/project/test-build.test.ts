// The compiled test tree (scripts/test-build.mjs) and the runner's --tree mode (scripts/test-runner.mjs):
// a compiled module runs under plain node and still sees the repository as its source does
// (import.meta.url, a script imported by a relative path, `#imports` under the torana-source condition,
// stack traces naming the .ts), the build compiles only what changed and drops what was deleted, and a
// run of compiled files reports and records the .ts names. Each case builds a small project of its own in
// a temporary directory.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
// @ts-expect-error: a plain ES module script without types
import { buildTestTree, compiledPath } from '../../scripts/test-build.mjs';

const ROOT = new URL('../..', import.meta.url).pathname;
// The folders of the small projects below, apart from their file names: their paths are not this
// repository's (test/project/citations.test.ts checks every path a file cites).
const SRC = 'src';
const TEST = 'test';
const SCRIPTS = 'scripts';
const RUNNER = join(ROOT, 'scripts/test-runner.mjs');

interface Built {
  dir: string;
  compiled: number;
  removed: number;
  files: number;
}

function put(root: string, path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

const PROJECT: { [path: string]: string } = {
  'package.json': JSON.stringify({
    type: 'module',
    imports: { '#backend': { 'torana-source': `./${SRC}/backend.ts`, default: './dist/backend.js' } },
  }),
  [`${SCRIPTS}/helper.mjs`]: "export const helper = 'from scripts';\n",
  [`${SRC}/backend.ts`]: "const kind: string = 'source backend';\nexport default kind;\n",
  [`${SRC}/where.ts`]: [
    'export enum Color { Red = 1 }',
    'export const where = { url: import.meta.url, dir: import.meta.dirname };',
    'export function fail(): never {',
    "  throw new Error('thrown from where.ts');",
    '}',
    '',
  ].join('\n'),
  [`${TEST}/probe.ts`]: [
    "import backend from '#backend';",
    "import { helper } from '../scripts/helper.mjs';",
    "import { Color, fail, where } from '../src/where.js';",
    "import type { Built } from './types.js';",
    'const b: Built | undefined = undefined;',
    'console.log(JSON.stringify({ backend, helper, red: Color.Red, where, b: b ?? null }));',
    "if (process.argv[2] === 'fail') fail();",
    '',
  ].join('\n'),
  [`${TEST}/types.ts`]: 'export interface Built { n: number }\n',
};

function runProbe(tree: string, ...args: string[]) {
  return spawnSync(process.execPath, ['--enable-source-maps', join(tree, `${TEST}/probe.js`), ...args], {
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '--conditions=torana-source' },
  });
}

describe('scripts/test-build.mjs', () => {
  let root: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'torana-test-build-'));
    for (const [path, text] of Object.entries(PROJECT)) put(root, path, text);
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('compiles src/ and test/; a compiled module sees the repository as its source does', async () => {
    const built = (await buildTestTree(root)) as Built;
    assert.deepEqual([built.compiled, built.removed, built.files], [4, 0, 4]);
    const r = runProbe(built.dir);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), {
      backend: 'source backend',
      helper: 'from scripts',
      red: 1,
      where: { url: pathToFileURL(join(root, `${SRC}/where.ts`)).href, dir: join(root, 'src') },
      b: null,
    });
    const thrown = runProbe(built.dir, 'fail');
    assert.notEqual(thrown.status, 0);
    assert.match(thrown.stderr, /thrown from where\.ts/);
    assert.ok(
      thrown.stderr.includes(`${join(root, `${SRC}/where.ts`)}:4:`),
      `the stack names the .ts line:\n${thrown.stderr}`,
    );
  });

  it('compiles again only what changed and removes what was deleted', async () => {
    const first = (await buildTestTree(root)) as Built;
    assert.equal(first.compiled, 0, 'nothing changed');
    put(root, `${SRC}/backend.ts`, "const kind: string = 'edited backend';\nexport default kind;\n");
    // The same second as before would not do on a coarse file system: move the mtime on explicitly.
    const later = new Date(Date.now() + 5000);
    utimesSync(join(root, `${SRC}/backend.ts`), later, later);
    const edited = (await buildTestTree(root)) as Built;
    assert.equal(edited.compiled, 1);
    assert.equal(JSON.parse(runProbe(edited.dir).stdout).backend, 'edited backend');
    rmSync(join(root, `${TEST}/types.ts`));
    const pruned = (await buildTestTree(root)) as Built;
    assert.deepEqual([pruned.compiled, pruned.removed, pruned.files], [0, 1, 3]);
    assert.throws(() => readFileSync(compiledPath(pruned.dir, `${TEST}/types.ts`)), /ENOENT/);
  });
});

describe('scripts/test-runner.mjs --tree', () => {
  let root: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'torana-test-tree-'));
    put(root, 'package.json', JSON.stringify({ type: 'module' }));
    put(root, `${SRC}/passes.test.ts`, "import { it } from 'node:test';\nit('passes', () => {});\n");
    put(root, `${SRC}/crashes.test.ts`, "const n: number = 1;\nthrow new Error('crashed at load ' + n);\n");
    put(
      root,
      `${SRC}/fails.test.ts`,
      "import assert from 'node:assert';\nimport { it } from 'node:test';\nit('fails', () => assert.equal(1 as number, 2));\n",
    );
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('runs the compiled files under plain node and names the .ts files in the report and the record', async () => {
    const built = (await buildTestTree(root)) as Built;
    const durations = join(root, 'durations.json');
    const { code, out } = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        [
          '--test-timeout=60000',
          RUNNER,
          '--tree',
          built.dir,
          '--durations',
          durations,
          '2',
          `${SRC}/passes.test.ts`,
          `${SRC}/fails.test.ts`,
          `${SRC}/crashes.test.ts`,
        ],
        {
          cwd: root,
          env: { ...process.env, NODE_OPTIONS: '', NODE_TEST_CONTEXT: undefined },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      child.on('close', (c) => resolve({ code: c, out }));
    });
    assert.equal(code, 1, out);
    const record = JSON.parse(readFileSync(durations, 'utf8')) as {
      files: { [file: string]: { passed: boolean } };
    };
    assert.deepEqual(Object.fromEntries(Object.entries(record.files).map(([f, r]) => [f, r.passed])), {
      [`${SRC}/passes.test.ts`]: true,
      [`${SRC}/fails.test.ts`]: false,
      [`${SRC}/crashes.test.ts`]: false,
    });
    // A file that fails outside any test is reported by its name, its error by the .ts line.
    assert.match(out, /^not ok \d+ - src\/crashes\.test\.ts$/m);
    assert.match(out, /crashed at load 1/);
    assert.match(out, /src\/crashes\.test\.ts:2:/);
    assert.match(out, /^not ok \d+ - fails$/m);
  });
});
