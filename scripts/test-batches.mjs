// Batches of small unit files for `npm test` (scripts/test-runner.mjs runs a batch `a+b+…` in one
// process, each file in a suite named by its path). A file's own process costs ~0.45 s of CPU before its
// first test (node, the test runner, its imports), more than most unit files under src/ spend on their
// tests; a batch pays it once and loads the modules its files share once.
//
// Batched: the files under src/ that have no budget of their own in scripts/test-budgets.json (those are
// the slow ones and start first, alone) and do not say `test-runner: own process` (a file that changes
// the process for the files after it: globals, process.env, a fake clock left installed, exit handlers).
// Files are grouped by their folder under src/, in path order, at most BATCH_FILES_MAX to a batch so
// that the two lanes of the runner stay balanced and a hung file holds back few others.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const BATCH_FILES_MAX = 10;
export const OWN_PROCESS_MARKER = 'test-runner: own process';

/** The folder a file is batched by: `src/<folder>/`, or undefined when the file is not batched. */
function batchFolder(root, file, budgeted) {
  if (!file.startsWith('src/') || budgeted.has(file)) return undefined;
  if (readFileSync(join(root, file), 'utf8').includes(OWN_PROCESS_MARKER)) return undefined;
  return file.split('/').slice(0, 2).join('/');
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
    let batch = open.get(folder);
    if (batch === undefined || batch.length >= BATCH_FILES_MAX) {
      batch = [];
      open.set(folder, batch);
      out.push(batch);
    }
    batch.push(f);
  }
  return out.map((x) => (typeof x === 'string' ? x : x.length === 1 ? x[0] : x.join('+')));
}
