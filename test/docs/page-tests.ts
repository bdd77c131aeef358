// The doc-example tests of a set of pages: each page's runnable blocks as one bash script (run-page.ts),
// one test per page. The pages are shared out over a few test files (PAGE_FILES) so that each file stays
// well inside the runner's per-file timeout on a loaded machine: doc-examples.test.ts runs every page no
// other file names.

import assert from 'node:assert/strict';
import { it } from 'node:test';
import { blockCommands, type DocBlock } from './extract.js';
import { decisionHere } from './host-needs.js';
import { runPage, setupOf, tail } from './run-page.js';

/**
 * Pages run by a test file of their own (path under test/docs/), with what each took on a two-core
 * machine under a load of 25: operations.md 270–360 s (three network namespaces, a backup restored, three
 * nodes started), conference.md ~105 s (its private block proves with the zk circuits), iso20022.md
 * ~110 s, README.md ~95 s and consensus.md ~35 s (local networks); the other pages together ~380 s.
 */
export const PAGE_FILES: Readonly<Record<string, string>> = {
  'docs/operations.md': 'doc-examples-operations.test.ts',
  // README.md and consensus.md both start a local network on the ports from 9100: one file, one at a time.
  'README.md': 'doc-examples-slow.test.ts',
  'docs/consensus.md': 'doc-examples-slow.test.ts',
  'docs/conference.md': 'doc-examples-slow.test.ts',
  'docs/iso20022.md': 'doc-examples-slow.test.ts',
};

/** One test per page of `pages` with a block that runs here. */
export function pageTests(pages: ReadonlyMap<string, readonly DocBlock[]>): void {
  for (const [page, blocks] of pages) {
    const runnable = blocks.filter((b) => decisionHere(b.decision).kind === 'run');
    if (runnable.length === 0) continue;
    it(`${page}: ${runnable.length} block(s), assuming ${setupOf(page).assumes}`, {
      timeout: 600_000,
    }, async () => {
      const r = await runPage(page, blocks);
      const command = runnable
        .flatMap((b) => blockCommands(b))
        .find((c) => `${c.page}:${c.line}` === r.at)?.text;
      assert.equal(
        r.code,
        0,
        `doc example failed at ${r.at ?? page}: ${command ?? '(before the first command)'}\n--- stderr (last lines)\n${tail(r.err)}\n--- stdout (last lines)\n${tail(r.out)}`,
      );
      assert.equal(r.at, 'end', 'the page ran to its end');
      for (const s of r.skipped) console.log(`skipped here: ${s}`);
      console.log(`${page}: ${runnable.length} block(s), ${r.commands} command(s) ran`);
    });
  }
}

/** The pages of `all` that the test file `file` runs. */
export function pagesOf(all: ReadonlyMap<string, DocBlock[]>, file: string): Map<string, DocBlock[]> {
  return new Map([...all].filter(([page]) => (PAGE_FILES[page] ?? 'doc-examples.test.ts') === file));
}
