// Batches of small test files for `npm test` (scripts/test-runner.mjs runs a batch `a+b+…` in one
// process, each file in a suite named by its path). A file's own process costs ~0.45 s of CPU before its
// first test (node, the test runner, its imports), ~2.4 s for one that imports a served node; most unit
// files under src/ and most end-to-end files under test/ that serve a node in process spend less than
// that on their tests. A batch pays it once and loads the modules its files share once.
//
// Batched: the files under src/ and test/ that have no budget of their own in scripts/test-budgets.json
// (those are the slow ones and start first, alone) and do not say `test-runner: own process` (a file that
// changes the process for the files after it: globals, process.env, a fake clock left installed, exit
// handlers, a loader hook; or one whose figures need a fresh process). Under test/, a file that starts a
// child process (the CLI, a crash child, a worker it names) also runs alone: its process is what it
// checks, and its time is the child's, not the start-up a batch saves. Files are grouped by their
// folder (`src/<folder>/`, `test/<folder>/`), in path order, at most BATCH_FILES_MAX to a batch under
// src/ and BATCH_TEST_FILES_MAX under test/ (each several seconds: a batch stays well inside the
// per-file timeout on a loaded machine), so that the two lanes of the runner stay balanced and a hung
// file holds back few others.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

export const BATCH_FILES_MAX = 10;
export const BATCH_TEST_FILES_MAX = 5;
export const OWN_PROCESS_MARKER = 'test-runner: own process';
/** A module that starts a child process or a worker thread. */
const STARTS_A_PROCESS = /\bfrom '(node:)?(child_process|worker_threads)'/;
const RELATIVE_IMPORT = /\bfrom '(\.{1,2}\/[^']+)\.js'/g;

/**
 * Whether a file under test/, or a module of test/ that it imports (its helpers, their helpers), starts
 * a child process or a worker thread. `seen`: the modules already looked at.
 */
function startsAProcess(root, file, seen = new Set()) {
  if (seen.has(file)) return false;
  seen.add(file);
  const text = readFileSync(join(root, file), 'utf8');
  if (STARTS_A_PROCESS.test(text)) return true;
  for (const m of text.matchAll(RELATIVE_IMPORT)) {
    const target = normalize(join(dirname(file), `${m[1]}.ts`));
    if (target.startsWith('test/') && existsSync(join(root, target)) && startsAProcess(root, target, seen))
      return true;
  }
  return false;
}

/** The folder a file is batched by: `src/<folder>/` or `test/<folder>/`, or undefined when the file is not batched. */
function batchFolder(root, file, budgeted) {
  const top = file.split('/')[0];
  if ((top !== 'src' && top !== 'test') || budgeted.has(file)) return undefined;
  const parts = file.split('/');
  if (parts.length < 3) return undefined;
  const text = readFileSync(join(root, file), 'utf8');
  if (text.includes(OWN_PROCESS_MARKER)) return undefined;
  if (top === 'test' && startsAProcess(root, file)) return undefined;
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
