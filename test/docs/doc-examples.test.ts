// Every shell block of README.md and docs/**/*.md marked `<!-- doc-example: run -->` runs, in page order,
// as one bash -e script per page against a fresh node (run-page.ts): a doc example that no longer works
// with the CLI fails here, naming its page and line. This file runs every page but the long ones
// (page-tests.ts PAGE_FILES: doc-examples-operations.test.ts, doc-examples-slow.test.ts), and lists the
// skipped blocks of every page with their reasons (test/docs/doc-blocks.test.ts, in npm test, fails on a
// block with neither marker).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decisionHere } from './host-needs.js';
import { pagesOf, pageTests } from './page-tests.js';
import { docBlocks } from './pages.js';

const pages = docBlocks();
const skipped = new Map<string, string[]>();
for (const [page, blocks] of pages)
  for (const b of blocks) {
    const d = decisionHere(b.decision); // a `run needs="netns"` block is skipped when not root
    if (d.kind === 'skip') skipped.set(d.reason, [...(skipped.get(d.reason) ?? []), `${page}:${b.line}`]);
  }

describe('doc examples run', () => {
  pageTests(pagesOf(pages, 'doc-examples.test.ts'));

  it('lists the skipped blocks with their reasons', () => {
    let n = 0;
    for (const [reason, where] of skipped) {
      n += where.length;
      console.log(`skipped ${where.length}: ${reason} (${where.join(', ')})`);
    }
    const run = [...pages.values()].flat().filter((b) => decisionHere(b.decision).kind === 'run').length;
    console.log(`doc examples: ${pages.size} pages, ${run} blocks run, ${n} skipped`);
    assert.ok(run > 0);
  });
});
