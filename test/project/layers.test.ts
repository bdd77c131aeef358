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
  zk: ['crypto'],
  model: ['codec', 'crypto', 'zk'],
  runtime: ['codec', 'crypto', 'model'],
  state: ['codec', 'crypto', 'model', 'zk'],
  storage: ['codec'],
  p2p: ['crypto'],
  pipeline: ['codec', 'crypto', 'model', 'state', 'storage'],
  consensus: ['codec', 'crypto', 'model', 'state', 'storage', 'pipeline'],
  // The gateway reaches the state only through its ports (gateway/ports.ts, gateway/query-port.ts).
  gateway: ['codec', 'crypto', 'model', 'pipeline', 'consensus', 'runtime'],
  // The application reads of accounts, domains, asset definitions and NFTs (docs/app-api.md).
  accounts: ['codec', 'model', 'gateway'],
  // The ledger proofs (docs/ledger-proofs.md) serve the state tree's proofs and name rows by the state's
  // key scheme and table codecs; the rosters they carry are consensus's validator sets.
  proofs: ['codec', 'model', 'gateway', 'state', 'consensus'],
  // GET /v1/policy reads the pipeline's admission and queue limits and the cost model's shares (model/weights.ts).
  policy: ['model', 'gateway', 'pipeline'],
  mcp: ['gateway'],
  // The SDK's prover entry point (`torana/sdk/zk`) is the conference module's (its sdk-zk.ts), so the SDK
  // folder itself imports no zk/.
  sdk: [
    'codec',
    'crypto',
    'model',
    'gateway',
    'modules',
    // The light client's pure checks: certificate rules and validator sets (consensus/certificate-check.ts,
    // validator-set.ts), the state tree verifier and key scheme (state/merkle/, state/keys.ts), and the
    // proof routes' answer types (proofs/views.ts).
    'consensus',
    'state',
    'proofs',
  ],
  // The ledger modules (docs/design/modules.md): each folder of src/modules/ builds on the core layers;
  // the core reaches modules only through the composition roots in COMPOSITION_ROOTS below.
  // The conference module reads its configuration section, proves and verifies through the core's zk/ and
  // crypto/ (the shielded pool and verifier stay in the core). A module's `dashboard.ts` builds its panels
  // with the dashboard module's UI parts through the bundle's `torana:dashboard`, never by a path. The
  // explorer's definition rows extend the application reads' item (accounts/items.ts); the transaction
  // history reads the commit-time indexes and their entry format (pipeline/tx-index.ts,
  // pipeline/tx-summary.ts) from the ledger the committed reads give (pipeline/ledger.ts).
  modules: [
    'codec',
    'crypto',
    'zk',
    'config',
    'model',
    'state',
    'gateway',
    'sdk',
    'cli',
    'accounts',
    'pipeline',
  ],
  sim: ['codec', 'crypto', 'model', 'storage', 'pipeline', 'consensus', 'modules'],
  // The event exporter (docs/export.md): a client of the node's event stream (through the SDK's SSE
  // reader) that names events by the gateway's filter projection and their ids by the pipeline's layout.
  export: ['model', 'pipeline', 'gateway', 'sdk'],
  // The PostgreSQL indexer (docs/indexer.md) verifies certificates and re-executes blocks.
  indexer: ['codec', 'model', 'state', 'pipeline', 'consensus', 'modules'],
  // The node starts the proof verification pool (src/zk/proof-pool.ts) beside the signature pool.
  node: [
    'policy',
    'codec',
    'crypto',
    'zk',
    'model',
    'state',
    'storage',
    'pipeline',
    'consensus',
    'p2p',
    'gateway',
    'config',
    'mcp',
    'accounts',
    'modules',
    'proofs',
    'indexer',
  ],
  cli: [
    'codec',
    'crypto',
    'model',
    'node',
    'sdk',
    'consensus',
    'pipeline',
    'gateway',
    'modules',
    'export',
    'indexer',
  ],
};

/**
 * The only files outside src/modules/ that may import from it, and what: the composition roots. The
 * light registry (src/modules/registry.ts: the modules' wire declarations and SDK functions) is
 * imported by the SDK's surface; the loader of the descriptors (src/modules/load.ts) by node/ and the
 * simulator, the loader of the command declarations (src/modules/commands.ts) by the CLI, whose actions
 * import the registry before they run (cli/lazy.ts). Test files may import the registry too (below):
 * every process declares the modules' wire pieces before its first codec use.
 */
const COMPOSITION_ROOTS: Record<string, RegExp> = {
  'node/node.ts': /^modules\/load\.ts$/,
  'node/families.ts': /^modules\/load\.ts$/,
  'sim/node.ts': /^modules\/load\.ts$/,
  'indexer/indexer.ts': /^modules\/load\.ts$/,
  'cli/main.ts': /^modules\/commands\.ts$/,
  'cli/lazy.ts': /^modules\/registry\.ts$/,
  // `torana export` scopes module data events by domain as the node does (the modules' event scopes).
  'cli/export-actions.ts': /^modules\/load\.ts$/,
  'sdk/index.ts': /^modules\/registry\.ts$/,
  'sdk/instructions.ts': /^modules\/registry\.ts$/,
};

/** What any test file may import from src/modules/: the registry, which declares the modules' wire. */
const TEST_MAY_IMPORT = 'modules/registry.ts';

/** Folders below the checked one may be imported by test files of that folder as well. */
const TEST_EXTRA: Record<string, readonly string[]> = {
  codec: ['model'],
  // Gateway unit tests wire the node's query engine adapter (node/query-language.ts) into the query port;
  // the error table's test reads the modules' declared rejection meanings (state/module-wire.ts).
  gateway: ['config', 'node', 'state'],
  // State tests of the weight cap run nested multisig batches (src/modules/multisig/).
  state: ['modules'],
  // Pipeline tests install the ledger modules (their instructions' touched assets, module-host.ts).
  pipeline: ['node', 'modules'],
  // A module's tests may check the core path its hooks plug into (the pipeline's touched-asset index);
  // the webhook event-type catalogue's test compiles its filters with the node's query language.
  // The operator sign-in routes' test reads the runtime ABI a signed operator request names.
  modules: ['pipeline', 'node', 'runtime'],
  mcp: ['crypto'],
  // The config bounds test checks the batch limits against what a peer's decoder accepts.
  config: ['consensus'],
  // The indexer's follower tests sign the certificates they feed it.
  indexer: ['crypto'],
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
  /(?:^|[\s;])(?:import|export)\b[^'"`]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)|(?:^|[\s;])import\s*['"](\.[^'"]+)['"]/g;

/** The path under src/ (with .ts for .js) each relative import of `file` lands in. */
function importedPaths(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(IMPORT)].map((m) =>
    relative(SRC, resolve(dirname(file), m[1] ?? m[2] ?? m[3]!)).replace(/\.js$/, '.ts'),
  );
}

/** The top folder of src/ each relative import of `file` lands in. */
function importedFolders(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2] ?? m[3]!;
    const target = relative(SRC, resolve(dirname(file), spec));
    if (target.startsWith('..'))
      out.push(
        relative(SRC, resolve(dirname(file), spec)).startsWith('../test/') ? '<test>' : '<outside src>',
      );
    else out.push(target.split('/')[0]!);
  }
  return out;
}

interface Scan {
  /** Imports outside the lists, as `file → folder`. */
  readonly bad: string[];
  /** `folder → target` edges the folder's non-test code uses (within the folder and util not counted). */
  readonly used: Set<string>;
  /** `folder → target` edges only its test files use. */
  readonly usedByTests: Set<string>;
}

/** Every relative import of every listed folder, checked against its list. */
function scan(): Scan {
  const bad: string[] = [];
  const used = new Set<string>();
  const usedByTests = new Set<string>();
  for (const folder of Object.keys(ALLOWED)) {
    for (const file of filesUnder(join(SRC, folder))) {
      const isTest = /\.test\.ts$|-fixture\.ts$/.test(file);
      const allowed = new Set([
        folder,
        'util',
        ...ALLOWED[folder]!,
        ...(isTest ? ['<test>', ...(TEST_EXTRA[folder] ?? [])] : []),
      ]);
      const paths = importedPaths(file);
      for (const [i, target] of importedFolders(file).entries()) {
        if (isTest && paths[i] === TEST_MAY_IMPORT) continue;
        if (!allowed.has(target)) bad.push(`${relative(SRC, file)} → ${target}`);
        else (isTest ? usedByTests : used).add(`${folder} → ${target}`);
      }
    }
  }
  return { bad, used, usedByTests };
}

describe('imports between src/ folders', () => {
  it('every folder of src/ has an allow-list, and every list a folder', () => {
    const folders = readdirSync(SRC).filter((n) => statSync(join(SRC, n)).isDirectory());
    const missing = folders.filter((f) => !(f in ALLOWED));
    assert.deepEqual(missing, [], `folders without an allow-list in test/project/layers.test.ts: ${missing}`);
    const gone = [...Object.keys(ALLOWED), ...Object.keys(TEST_EXTRA)].filter((f) => !folders.includes(f));
    assert.deepEqual(gone, [], `allow-lists of folders src/ does not have: ${gone}`);
  });

  it('each folder imports only the folders on its list', () => {
    const { bad } = scan();
    assert.deepEqual(bad, [], `imports against the layering:\n${bad.join('\n')}`);
  });

  it('every allowed edge is used, so the lists cannot go stale', () => {
    const { used, usedByTests } = scan();
    const unused: string[] = [];
    for (const [folder, targets] of Object.entries(ALLOWED)) {
      for (const target of targets) {
        if (!used.has(`${folder} → ${target}`)) unused.push(`${folder} → ${target}`);
      }
    }
    for (const [folder, targets] of Object.entries(TEST_EXTRA)) {
      for (const target of targets) {
        if (!usedByTests.has(`${folder} → ${target}`)) unused.push(`${folder} → ${target} (tests)`);
      }
    }
    assert.deepEqual(unused, [], `allowed imports that nothing uses (remove them):\n${unused.join('\n')}`);
  });

  it('only the composition roots import src/modules/, and a module folder imports no other module', () => {
    const bad: string[] = [];
    for (const file of filesUnder(SRC)) {
      if (/\.test\.ts$/.test(file)) continue;
      const from = relative(SRC, file);
      const fromModule = /^modules\/([a-z-]+)\//.exec(from)?.[1];
      for (const target of importedPaths(file)) {
        if (!target.startsWith('modules/')) continue;
        if (fromModule !== undefined) {
          const toModule = /^modules\/([a-z-]+)\//.exec(target)?.[1];
          if (toModule !== undefined && toModule !== fromModule) bad.push(`${from} → ${target}`);
          continue;
        }
        if (from.startsWith('modules/')) continue; // the registry, loader and descriptor files
        if (!(COMPOSITION_ROOTS[from]?.test(target) ?? false)) bad.push(`${from} → ${target}`);
      }
    }
    assert.deepEqual(bad, [], `imports of src/modules/ outside the composition roots:\n${bad.join('\n')}`);
  });

  it('the check sees static, re-exported, dynamic and bare imports', () => {
    const sample = [
      "import { a } from '../model/ids.js';",
      "export { b } from '../state/keys.js';",
      "const c = await import('../node/node.js');",
      "import type { D } from './local.js';",
      "import '../modules/registry.js';",
    ].join('\n');
    const found = [...sample.matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? m[3]);
    assert.deepEqual(found, [
      '../model/ids.js',
      '../state/keys.js',
      '../node/node.js',
      './local.js',
      '../modules/registry.js',
    ]);
  });
});
