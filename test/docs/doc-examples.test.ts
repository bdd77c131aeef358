// Every shell block of README.md and docs/**/*.md marked `<!-- doc-example: run -->` runs, in page order,
// as one bash -e script per page against a fresh node (run-page.ts): a doc example that no longer works
// with the CLI fails here, naming its page and line. Skipped blocks are listed with their reasons
// (test/docs/doc-blocks.test.ts, in npm test, fails on a block with neither marker).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { blockCommands } from './extract.js';
import { decisionHere } from './host-needs.js';
import { docBlocks } from './pages.js';
import { runPage, setupOf, tail } from './run-page.js';

const pages = docBlocks();
const skipped = new Map<string, string[]>();
for (const [page, blocks] of pages)
  for (const b of blocks) {
    const d = decisionHere(b.decision); // a `run needs="netns"` block is skipped when not root
    if (d.kind === 'skip') skipped.set(d.reason, [...(skipped.get(d.reason) ?? []), `${page}:${b.line}`]);
  }

describe('doc examples run', () => {
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
