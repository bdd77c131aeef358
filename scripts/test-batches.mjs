// Batches of small test files for `npm test` (scripts/test-runner.mjs runs a batch `a+b+…` in one
// process, each file in a suite named by its path). A file's own process costs ~0.45 s of CPU before its
// first test (node, the test runner, its imports), ~2.4 s for one that imports a served node; most unit
// files under src/ and most end-to-end files under test/ that serve a node in process spend less than
// that on their tests. A batch pays it once and loads the modules its files share once.
//
// Batched: the files under src/ and test/ that have no budget of their own in scripts/test-budgets.json
// (those are the slow ones and start first, alone) and do not say `test-runner: own process` (a file that
// changes the process for the files after it: globals, process.env, the working directory, a fake clock
// left installed, exit or signal handlers, a loader hook; or one whose figures need a fresh process).
// A file under test/ that starts child processes (the CLI, a crash child, a node process, a worker) is
// batched too: its children are what it checks and they start afresh either way, but its own process
// paid node's start and the import of its helpers (a served node: ~2.4 s of CPU under tsx, ~1.5 s
// compiled) once per file, before its first test. Files are grouped by their folder (`src/<folder>/`,
// `test/<folder>/`), in path order, at most BATCH_FILES_MAX to a batch under src/ and
// BATCH_TEST_FILES_MAX under test/ (end-to-end files take several seconds each, up to ~15 s in CI: a
// batch stays well inside the per-file timeout on a loaded machine), so that the lanes of the
// runner stay balanced and a hung file holds back few others.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const BATCH_FILES_MAX = 20;
export const BATCH_TEST_FILES_MAX = 5;
export const OWN_PROCESS_MARKER = 'test-runner: own process';

/** The folder a file is batched by: `src/<folder>/` or `test/<folder>/`, or undefined when the file is not batched. */
function batchFolder(root, file, budgeted) {
  const top = file.split('/')[0];
  if ((top !== 'src' && top !== 'test') || budgeted.has(file)) return undefined;
  const parts = file.split('/');
  if (parts.length < 3) return undefined;
  const text = readFileSync(join(root, file), 'utf8');
  if (text.includes(OWN_PROCESS_MARKER)) return undefined;
  return parts.slice(0, 2).join('/');
}

/**
 * `files` (paths from the root, in run order) with the batched ones replaced by batches (`a+b+…`),
 * each batch where its first file was. `budgeted`: the files with a budget of their own.
 */
export function batchFiles(root, files, budgeted) {
  const open = new Map();
  const out = [];
  for (const f of files) {
    const folder = batchFolder(root, f, budgeted);
    if (folder === undefined) {
      out.push(f);
      continue;
    }
    const max = folder.startsWith('test/') ? BATCH_TEST_FILES_MAX : BATCH_FILES_MAX;
    let batch = open.get(folder);
    if (batch === undefined || batch.length >= max) {
      batch = [];
      open.set(folder, batch);
      out.push(batch);
    }
    batch.push(f);
  }
  return out.map((x) => (typeof x === 'string' ? x : x.length === 1 ? x[0] : x.join('+')));
}
