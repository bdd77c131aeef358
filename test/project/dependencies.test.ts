// Every run-time dependency is used: a package that nothing imports still gets
// installed on every node, enlarges the supply chain and the audit surface, and hides in
// package.json long after the code that needed it is gone.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

const ROOT = new URL('../..', import.meta.url).pathname;

/**
 * Dependencies used without an import, each with the reason. pino is Fastify's logger: Fastify
 * accepts pino 9 or 10 and loads whichever is installed, so listing it pins the major we test.
 */
const USED_WITHOUT_IMPORT = new Set(['pino']);

interface PackageJson {
  readonly dependencies: Record<string, string>;
}

/** The source the node and its CLI run (src/, bin/), concatenated once. */
function runtimeSource(): string {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\0')
    .filter((f) => /^(?:src|bin)\/.*\.(?:ts|js|mjs)$/.test(f) && !/\.test\.ts$|-fixture\.ts$/.test(f));
  return files.map((f) => readFileSync(new URL(f, `file://${ROOT}/`), 'utf8')).join('\n');
}

/** An import or re-export of the package or one of its subpaths, static or dynamic. */
function imports(source: string, name: string): boolean {
  const quoted = name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  return new RegExp(`(?:from|import)\\s*\\(?\\s*['"]${quoted}(?:/[^'"]*)?['"]`).test(source);
}

describe('package.json dependencies', () => {
  it('the import check sees static, dynamic and subpath imports, and no near misses', () => {
    assert.ok(imports("import { x } from '@noble/hashes/sha2';", '@noble/hashes'));
    assert.ok(imports("const m = await import('lmdb');", 'lmdb'));
    assert.ok(imports("export { y } from 'ws';", 'ws'));
    assert.ok(!imports("import { z } from 'wsx';", 'ws'));
    assert.ok(!imports("// see '@noble/ciphers'", '@noble/ciphers'));
  });

  it('every run-time dependency is imported by src/ or bin/', () => {
    const pkg = JSON.parse(readFileSync(new URL('package.json', `file://${ROOT}/`), 'utf8')) as PackageJson;
    const source = runtimeSource();
    const unused = Object.keys(pkg.dependencies).filter(
      (name) => !USED_WITHOUT_IMPORT.has(name) && !imports(source, name),
    );
    assert.deepEqual(unused, [], `dependencies imported nowhere: ${unused.join(', ')}`);
  });
});
