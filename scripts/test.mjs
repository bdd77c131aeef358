#!/usr/bin/env node
// The project's test command: every test file of the quick tier through node's own test runner (whose
// closing lines CI reads), with the lint, format and type checks running beside it at a lower priority
// (scripts/test-checks.mjs). `--integration` runs the integration
// tier instead (the long multi-process scenarios listed in scripts/test-tiers.json, no checks);
// `--reliability` the long suites in test/reliability/. `--only <substring>` narrows the files while
// developing (across the quick and integration tiers unless one is named: `--quick`, `--integration`);
// `--list` prints the files a run would start, in order, and runs nothing. `--linger`: each file's
// process ends when its event loop is empty, not once its tests are done (scripts/test-runner.mjs).
// The quick tier runs its small files under src/ and test/ in batches, several files of a folder to a
// process (scripts/test-batches.mjs); `--no-batch` gives every file a process of its own.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join, relative } from 'node:path';
import { batchFiles } from './test-batches.mjs';
import { buildTestTree } from './test-build.mjs';
import { buildTestBundle, removeTestBundle } from './test-bundle.mjs';
import { failureText, startChecks } from './test-checks.mjs';
import { fileTimeoutMs, loadBudgets, slowestFirst } from './test-durations.mjs';

const root = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
const reliability = args.includes('--reliability');
const integration = args.includes('--integration');
const quickNamed = args.includes('--quick');
const list = args.includes('--list');
const onlyIdx = args.indexOf('--only');
const only = onlyIdx >= 0 ? args[onlyIdx + 1] : undefined;
const skipChecks = args.includes('--no-checks') || only !== undefined || integration || list;
const tier = reliability ? 'reliability' : integration ? 'integration' : 'quick';

function walk(dir, out) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (name.endsWith('.test.ts')) out.push(relative(root, p));
  }
  return out;
}

// `#crypto-backend` resolves through package.json `imports`: the `torana-source` condition picks the
// TypeScript sources (tsx), without it the compiled dist/ files. NODE_OPTIONS carries the condition
// into every process and worker the tests start.
const env = {
  ...process.env,
  NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --conditions=torana-source`.trim(),
};

// Lint, format and type checks run beside the test files (scripts/test-checks.mjs); a failed one is
// printed when it ends and fails the run once the files are done.
const checks =
  skipChecks || tier !== 'quick'
    ? undefined
    : startChecks(root, env, (failed) => process.stderr.write(failureText(failed)));

// The slowest files, slowest first (scripts/test-budgets.json: each file's budget in seconds, biggest
// first): they start first, so that the lanes of the runner finish together instead of one lane
// starting a long file when the others are almost done. Every other file follows in path order; a missing
// name is skipped. The runner records every file's duration in test-durations.json (git-ignored) and
// warns about files over their budget; timing never fails the run.
const budgetsPath = join(root, 'scripts/test-budgets.json');
const SLOWEST_FIRST = reliability ? [] : slowestFirst(loadBudgets(budgetsPath));

// The integration tier (scripts/test-tiers.json): `npm run test:integration`, which CI runs after
// `npm test`. With `--only` and no tier named, both the quick and the integration tier are searched
// (`--quick` keeps to the quick tier).
const INTEGRATION = new Set(
  Object.keys(JSON.parse(readFileSync(join(root, 'scripts/test-tiers.json'), 'utf8')).integration),
);
function inTier(f) {
  if (f.startsWith('test/reliability/')) return reliability;
  if (reliability) return false;
  if (integration) return INTEGRATION.has(f);
  return (only !== undefined && !quickNamed) || !INTEGRATION.has(f);
}

const found = [...walk(join(root, 'src'), []), ...walk(join(root, 'test'), [])]
  .filter(inTier)
  .filter((f) => (only ? f.includes(only) : true))
  .sort();
const first = SLOWEST_FIRST.filter((f) => found.includes(f));
const ordered = [...first, ...found.filter((f) => !first.includes(f))];
const batched = tier === 'quick' && !args.includes('--no-batch');
const files = batched ? batchFiles(root, ordered, new Set(SLOWEST_FIRST)) : ordered;
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
if (list) {
  // One file a line, in run order (a batch's files one after another).
  console.log(files.flatMap((f) => f.split('+')).join('\n'));
  process.exit(0);
}
// Per file, generous: a timeout stops a hung file, never a slow machine. A file's CPU time stretches
// tenfold when the 2 cores are shared with twenty other processes (the route fuzz, ~30 s in CI, took
// over 240 s at load 32; a 500-seed sweep, ~25 s of CPU, as long), and further on a busier machine:
// the timeout grows with the load the run starts under (fileTimeoutMs).
const TIMEOUT_MS = { quick: 480_000, integration: 600_000, reliability: 5_400_000 };
const busyProcesses = (process.env.LOAD_BUSY_PIDS ?? '').split(' ').filter((p) => p !== '').length;
const timeoutMs = fileTimeoutMs(TIMEOUT_MS[tier], loadavg()[0] + busyProcesses, availableParallelism());
if (timeoutMs !== TIMEOUT_MS[tier])
  console.error(
    `per-file timeout ${timeoutMs / 1000} s (load ${loadavg()[0].toFixed(1)} + ${busyProcesses} busy)`,
  );
const DURATIONS = {
  quick: 'test-durations.json',
  integration: 'test-durations-integration.json',
  reliability: 'test-durations-reliability.json',
};
// Child processes of the tests (CLI, crash children) start from a bundle of the sources
// (scripts/test-bundle.mjs); removed when the run ends, also on failure. test-runner.mjs runs the
// files in the order above (`node --test FILE…` would sort them), LANES[tier] at a time: three in
// `npm test`, whose files wait on sockets, timers and child processes part of the time (on 2 cores the
// third lane took the run from ~325 s to ~300 s on a quiet machine, the CPU from 177 % to 190 %); two in
// the integration tier, whose files are several node processes each. TEST_LANES=<n> overrides it.
const LANES = { quick: 3, integration: 2, reliability: 2 };
const bundle = await buildTestBundle(root);
env.TEST_ENTRY_BUNDLE = bundle;
// Every test file runs compiled (scripts/test-build.mjs): plain node, source maps for stack traces
// (scripts/test-runner.mjs --tree).
// TEST_TSX=1 runs them from source under tsx instead, as before the tree existed.
const tsx = process.env.TEST_TSX === '1';
const tree = tsx ? undefined : await buildTestTree(root);
if (tree !== undefined && tree.compiled > 0)
  console.error(
    `test build: compiled ${tree.compiled} of ${tree.files} files in ${(tree.ms / 1000).toFixed(1)} s`,
  );
const runner = spawn(
  process.execPath,
  [
    ...(tsx ? ['--import', 'tsx'] : []),
    `--test-timeout=${timeoutMs}`,
    join(root, 'scripts/test-runner.mjs'),
    ...(tree === undefined ? [] : ['--tree', tree.dir]),
    '--durations',
    join(root, DURATIONS[tier]),
    ...(only === undefined ? [] : ['--merge']),
    ...(reliability ? [] : ['--budgets', budgetsPath]),
    ...(args.includes('--linger') ? ['--linger'] : []),
    process.env.TEST_LANES ?? String(LANES[tier]),
    ...files,
  ],
  { cwd: root, stdio: 'inherit', env },
);
const status = await new Promise((resolve) => {
  runner.on('error', () => resolve(1));
  runner.on('exit', (code) => resolve(code ?? 1));
});
removeTestBundle(bundle);
const outcomes = (await checks) ?? [];
const failed = outcomes.filter((o) => !o.ok);
for (const o of outcomes)
  console.error(`check ${o.name}: ${o.ok ? 'passed' : 'FAILED'} (${o.seconds.toFixed(1)} s after the start)`);
process.exit(status !== 0 ? status : failed.length > 0 ? 1 : 0);
