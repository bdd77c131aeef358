// Dependencies point one way (docs/design/architecture.md): each folder of src/ may import only the
// folders on its allow-list below. A new import across folders either fits the layering (add it here,
// in review) or shows a part reaching past its port. Test files may also import what their folder's
// code imports; test-only helpers live outside src/.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';

const SRC = new URL('../../src', import.meta.url).pathname;

/** folder → folders its non-test code may import (util is allowed everywhere). */
const ALLOWED: Record<string, readonly string[]> = {
  util: [],
  codec: [],
  crypto: [],
  config: [],
  zk: ['codec', 'crypto'],
  model: ['codec', 'crypto', 'zk'],
  runtime: ['codec', 'crypto', 'model'],
  state: ['codec', 'crypto', 'model', 'zk'],
  storage: ['codec', 'crypto', 'model'],
  p2p: ['codec', 'crypto'],
  pipeline: ['codec', 'crypto', 'model', 'state', 'storage', 'runtime'],
  consensus: ['codec', 'crypto', 'model', 'state', 'storage', 'pipeline', 'p2p'],
  // The gateway reaches the state only through its ports (gateway/ports.ts, gateway/query-port.ts).
  gateway: ['codec', 'crypto', 'model', 'pipeline', 'consensus', 'config', 'runtime'],
  // The bridge's route family (iso20022/routes/) is built on the gateway.
  iso20022: ['codec', 'crypto', 'model', 'config', 'gateway'],
  // The wave-1 application reads (accounts, domains, asset definitions, NFTs).
  accounts: ['codec', 'model', 'gateway'],
  conference: ['codec', 'crypto', 'model', 'zk', 'gateway', 'config'],
  telemetry: ['codec', 'crypto', 'model', 'gateway', 'config'],
  // The explorer's definition rows extend the application reads' item (accounts/items.ts).
  explorer: ['codec', 'crypto', 'model', 'gateway', 'config', 'accounts'],
  webhooks: ['codec', 'crypto', 'model', 'gateway', 'config'],
  dashboard: ['gateway', 'config'],
  // Transaction history reads the pipeline's index entry format (pipeline/tx-summary.ts).
  history: ['codec', 'crypto', 'model', 'gateway', 'config', 'pipeline'],
  aliases: ['codec', 'model', 'gateway'],
  controls: ['codec', 'model', 'gateway'],
  multisig: ['codec', 'crypto', 'model', 'gateway', 'config'],
  subscriptions: ['codec', 'model', 'gateway'],
  operator: ['crypto', 'gateway'],
  mcp: ['gateway'],
  sdk: [
    'codec',
    'crypto',
    'model',
    'zk',
    'gateway',
    'conference',
    'runtime',
    'telemetry',
    'explorer',
    'history',
    'aliases',
    'controls',
    'subscriptions',
    'operator',
    'multisig',
  ],
  sim: ['codec', 'crypto', 'model', 'state', 'storage', 'pipeline', 'consensus'],
  node: [
    'codec',
    'crypto',
    'model',
    'state',
    'storage',
    'pipeline',
    'consensus',
    'p2p',
    'gateway',
    'iso20022',
    'conference',
    'runtime',
    'config',
    'zk',
    'telemetry',
    'explorer',
    'webhooks',
    'dashboard',
    'history',
    'aliases',
    'controls',
    'subscriptions',
    'operator',
    'mcp',
    'accounts',
    'multisig',
  ],
  cli: [
    'codec',
    'crypto',
    'model',
    'node',
    'sdk',
    'config',
    'consensus',
    'iso20022',
    'conference',
    'zk',
    'pipeline',
    'history',
    'gateway',
    'telemetry',
    'aliases',
    'controls',
    'multisig',
    'subscriptions',
  ],
};

/** Folders below the checked one may be imported by test files of that folder as well. */
const TEST_EXTRA: Record<string, readonly string[]> = {
  codec: ['model'],
  // Gateway unit tests wire the node's query engine adapter (node/query-language.ts) into the query port.
  gateway: ['node'],
  pipeline: ['node'],
  sim: ['node'],
  zk: ['sdk'],
  operator: ['runtime'],
  mcp: ['crypto'],
};

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else if (/\.(?:ts|js|mjs)$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

const IMPORT =
  /(?:^|[\s;])(?:import|export)\b[^'"`]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

/** The top folder of src/ each relative import of `file` lands in. */
function importedFolders(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2]!;
    const target = relative(SRC, resolve(dirname(file), spec));
    if (target.startsWith('..'))
      out.push(
        relative(SRC, resolve(dirname(file), spec)).startsWith('../test/') ? '<test>' : '<outside src>',
      );
    else out.push(target.split('/')[0]!);
  }
  return out;
}

describe('imports between src/ folders', () => {
  it('every folder of src/ has an allow-list', () => {
    const folders = readdirSync(SRC).filter((n) => statSync(join(SRC, n)).isDirectory());
    const missing = folders.filter((f) => !(f in ALLOWED));
    assert.deepEqual(missing, [], `folders without an allow-list in test/project/layers.test.ts: ${missing}`);
  });

  it('each folder imports only the folders on its list', () => {
    const bad: string[] = [];
    for (const folder of Object.keys(ALLOWED)) {
      let files: string[];
      try {
        files = filesUnder(join(SRC, folder));
      } catch {
        continue; // listed ahead of its creation
      }
      for (const file of files) {
        const isTest = /\.test\.ts$|-fixture\.ts$/.test(file);
        const allowed = new Set([
          folder,
          'util',
          ...ALLOWED[folder]!,
          ...(isTest ? ['<test>', ...(TEST_EXTRA[folder] ?? [])] : []),
        ]);
        for (const target of importedFolders(file)) {
          if (!allowed.has(target)) bad.push(`${relative(SRC, file)} → ${target}`);
        }
      }
    }
    assert.deepEqual(bad, [], `imports against the layering:\n${bad.join('\n')}`);
  });

  it('the check sees static, re-exported and dynamic imports', () => {
    const sample = [
      "import { a } from '../model/ids.js';",
      "export { b } from '../state/keys.js';",
      "const c = await import('../node/node.js');",
      "import type { D } from './local.js';",
    ].join('\n');
    const found = [...sample.matchAll(IMPORT)].map((m) => m[1] ?? m[2]);
    assert.deepEqual(found, ['../model/ids.js', '../state/keys.js', '../node/node.js', './local.js']);
  });
});
