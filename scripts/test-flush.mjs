// Preloaded into every test file's process by scripts/test-runner.mjs (`--import`, which node:test's
// run() passes on to each file's process with the runner's other flags). Under the runner's forceExit a
// file's process ends as soon as its root test is done and its report stream closes: the last tests'
// results can still be on their way through the report's serializer then, and a file whose last test
// failed with a long message lost that test and the ones after it from the report (the exit code still
// failed the file, but the counts were wrong and the failure unnamed). A root `after` hook, which runs
// once every test of the file is done, lets those results out first.
//
// Only in a test file's own process: node:test's run() marks it (NODE_TEST_CONTEXT) and starts it with
// --test-force-exit and the file as its main module. A child process that a test starts with the same
// flags (`torana testnet up` passes its own on) is not a test file and loads nothing here.
const main = process.argv[1] ?? '';
if (
  process.env.NODE_TEST_CONTEXT !== undefined &&
  process.execArgv.includes('--test-force-exit') &&
  /\.test\.(m?js|ts)$/.test(main)
) {
  // The report goes to the runner through a pipe, and node writes to a pipe asynchronously: a write the
  // pipe cannot take at once (a 300 KB failure message while the runner is busy) stays queued in this
  // process, and the force exit cut it off mid-message. Node 20's runner then read a frame that never
  // completes and spun at 100 % CPU forever (fixed upstream in later Node lines: a partial frame is
  // flushed as output there). With the pipe blocking, every report write completes before the next.
  process.stdout._handle?.setBlocking?.(true);
  const { after } = await import('node:test');
  after(async () => {
    // Each turn lets the report's stream stages (promises, next ticks) move what they hold along.
    for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
    await new Promise((r) => process.stdout.write('', r));
  });
}
