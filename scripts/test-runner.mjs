// Runs test files in the order given (scripts/test.mjs puts the slowest first). Node 20's `node --test
// FILE…` sorts its files by path, so this calls node:test's run() instead, with the reporter the CLI
// would pick (spec on a terminal, TAP otherwise, so the closing lines CI reads are unchanged) and the
// exit code it would give. Usage:
//   node [--import tsx] --test-timeout=MS test-runner.mjs [--tree DIR] [--durations FILE [--merge]]
//     [--budgets FILE] [--linger] CONCURRENCY FILE…
// Flags before the script name reach every test file's process; the timeout also bounds each file, as
// `node --test --test-timeout` does. With --tree, each FILE (a .ts path) runs as its compiled .js in DIR
// (scripts/test-build.mjs) under plain node; the report, the record and the summary still name FILE. With --durations, every file's duration is written to FILE
// (scripts/test-durations.mjs) and a summary (slowest files, total, files over their --budgets budget)
// is printed as diagnostics just before the closing counts.
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { run } from 'node:test';
import { spec, tap } from 'node:test/reporters';
import { compiledPath } from './test-build.mjs';
import { loadBudgets, summaryLines, writeDurations } from './test-durations.mjs';

const args = process.argv.slice(2);
function option(name) {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const [, value] = args.splice(i, 2);
  return value;
}
function flag(name) {
  const i = args.indexOf(name);
  if (i >= 0) args.splice(i, 1);
  return i >= 0;
}
const tree = option('--tree');
const durationsPath = option('--durations');
const budgetsPath = option('--budgets');
const merge = flag('--merge');
// A file's process exits once its tests and hooks are done (node:test's forceExit), not when its event
// loop is empty: a timer or socket left behind (a race's unused timeout, a WebSocket waiting out its
// close handshake) would otherwise hold every file open for seconds after its last test. --linger
// keeps node's default, to find what a file leaves behind.
const linger = flag('--linger');
const [concurrency, ...files] = args;
const budgets = budgetsPath === undefined ? undefined : loadBudgets(budgetsPath);

const timeoutArg = process.execArgv.find((a) => a.startsWith('--test-timeout='));
const timeout = timeoutArg === undefined ? Number.POSITIVE_INFINITY : Number(timeoutArg.split('=')[1]);
const started = performance.now();
// With --tree, stack traces name the .ts sources (the compiled files carry inline source maps):
// NODE_OPTIONS reaches each file's process (run() starts them with this process's flags and env).
if (tree !== undefined && !/--enable-source-maps\b/.test(process.env.NODE_OPTIONS ?? ''))
  process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --enable-source-maps`.trim();
// What run() starts: the compiled file of each FILE with --tree, FILE itself otherwise.
const runFiles = files.map((f) => (tree === undefined ? f : compiledPath(tree, f)));
const stream = run({ files: runFiles, concurrency: Number(concurrency), timeout, forceExit: !linger });
// As the CLI: a failing test marked todo does not fail the run.
stream.on('test:fail', (data) => {
  if (!data.todo) process.exitCode = 1;
});

// A file's own test (nesting 0, named by the path given) completes when its process ends.
const byAbsolute = new Map(files.map((f) => [resolve(f), f]));
// With --tree, the compiled file → the source: its absolute path (an event's `file`), and its path as
// given to run() (the name of the file's own test).
const sourceFile = new Map(tree === undefined ? [] : files.map((f, i) => [resolve(runFiles[i]), resolve(f)]));
const sourceName = new Map(tree === undefined ? [] : files.map((f, i) => [runFiles[i], f]));
/** The event as if the source file had run: its `file` and a file test's `name` name the source. */
function named(event) {
  const data = event.data;
  if (tree === undefined || data === null || typeof data !== 'object') return event;
  const file = sourceFile.get(data.file);
  const name = data.nesting === 0 ? sourceName.get(data.name) : undefined;
  if (file === undefined && name === undefined) return event;
  return {
    ...event,
    data: { ...data, ...(file === undefined ? {} : { file }), ...(name === undefined ? {} : { name }) },
  };
}
const isFileTest = (data) =>
  data.nesting === 0 && byAbsolute.has(data.file) && resolve(data.name) === data.file;
const results = [];

function summary() {
  const wallS = (performance.now() - started) / 1000;
  if (durationsPath === undefined) return [];
  writeDurations(durationsPath, { results, wallS, concurrency: Number(concurrency), merge, budgets });
  return summaryLines({ results, wallS, budgets, recordPath: durationsPath });
}

/** The run's events, with the summary as diagnostics before the closing counts ("tests N", …). */
async function* withSummary(source) {
  let done = false;
  for await (const raw of source) {
    const event = named(raw);
    const { type, data } = event;
    if (type === 'test:complete' && isFileTest(data)) {
      results.push({
        file: byAbsolute.get(data.file),
        s: data.details.duration_ms / 1000,
        passed: data.details.passed,
        timedOut: data.details.error?.failureType === 'testTimeoutFailure',
      });
    }
    if (!done && type === 'test:diagnostic' && data.nesting === 0 && /^tests \d+$/.test(data.message)) {
      done = true;
      for (const message of summary()) yield { type: 'test:diagnostic', data: { nesting: 0, message } };
    }
    yield event;
  }
  if (!done)
    for (const message of summary()) yield { type: 'test:diagnostic', data: { nesting: 0, message } };
}

Readable.from(withSummary(stream))
  .compose(process.stdout.isTTY ? spec : tap)
  .pipe(process.stdout);
