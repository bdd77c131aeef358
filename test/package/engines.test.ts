// `engines.node` of the node package and of the SDK package is a promise to their installers: every
// package the lockfile installs (dependencies and the development tree `npm ci` builds) must run on every
// Node.js version that range admits, or `npm ci` warns EBADENGINE on a supported Node. Reads the lockfiles,
// starts nothing.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ROOT } from '../helpers/run-cli.js';

const semver = createRequire(import.meta.url)('semver') as {
  subset(sub: string, sup: string): boolean;
  validRange(range: string): string | null;
};

interface Lock {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
}

async function json<T>(path: string): Promise<T> {
  return JSON.parse(await readFile(join(ROOT, path), 'utf8')) as T;
}

/** Lockfile entries whose `engines.node` does not admit every version of `range`. */
function narrowerEngines(lock: Lock, range: string): string[] {
  const out: string[] = [];
  for (const [path, p] of Object.entries(lock.packages)) {
    const node = Array.isArray(p.engines) ? undefined : p.engines?.node;
    if (path === '' || node === undefined || semver.validRange(node) === null) continue;
    if (!semver.subset(range, node)) out.push(`${path}@${p.version} needs node ${node}`);
  }
  return out;
}

describe('engines', () => {
  it('every locked package runs on every Node.js version the node package admits', async () => {
    const pkg = await json<{ engines: { node: string } }>('package.json');
    const lock = await json<Lock>('package-lock.json');
    assert.equal(
      lock.packages['']?.engines && (lock.packages[''].engines as { node: string }).node,
      pkg.engines.node,
    );
    assert.deepEqual(narrowerEngines(lock, pkg.engines.node), []);
  });

  it('the check sees a narrower package (cookie 2 needs Node 22)', () => {
    const lock: Lock = {
      packages: { 'node_modules/cookie': { version: '2.0.2', engines: { node: '>=22' } } },
    };
    assert.deepEqual(narrowerEngines(lock, '>=20'), ['node_modules/cookie@2.0.2 needs node >=22']);
    assert.deepEqual(narrowerEngines(lock, '>=22'), []);
  });

  it('the SDK package admits the same Node.js versions as the node package', async () => {
    const pkg = await json<{ engines: { node: string } }>('package.json');
    const sdk = await json<{ engines: { node: string } }>('packages/sdk/package.json');
    assert.equal(sdk.engines.node, pkg.engines.node);
  });
});
