// Runs test files in the order given (scripts/test.mjs puts the slowest first). Node 20's `node --test
// FILE…` sorts its files by path, so this calls node:test's run() instead, with the reporter the CLI
// would pick (spec on a terminal, TAP otherwise, so the closing lines CI reads are unchanged) and the
// exit code it would give. Usage: node --import tsx --test-timeout=MS test-runner.mjs CONCURRENCY FILE…
// Flags before the script name reach every test file's process; the timeout also bounds each file, as
// `node --test --test-timeout` does.
import { run } from 'node:test';
import { spec, tap } from 'node:test/reporters';

const [concurrency, ...files] = process.argv.slice(2);
const timeoutArg = process.execArgv.find((a) => a.startsWith('--test-timeout='));
const timeout = timeoutArg === undefined ? Number.POSITIVE_INFINITY : Number(timeoutArg.split('=')[1]);
const stream = run({ files, concurrency: Number(concurrency), timeout });
// As the CLI: a failing test marked todo does not fail the run.
stream.on('test:fail', (data) => {
  if (!data.todo) process.exitCode = 1;
});
stream.compose(process.stdout.isTTY ? spec : tap).pipe(process.stdout);
