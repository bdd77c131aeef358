// The cheap half of the doc-example check (npm test): every shell block of README.md and docs/**/*.md
// is marked run or skip with a reason (test/docs/extract.ts), a runnable one parses as bash and holds no
// placeholder, and every `torana …` in any shell block, run or skipped, names a command the CLI declares
// with options it takes. test/docs/doc-examples.test.ts (integration tier) runs the runnable ones.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { buildProgram } from '../../src/cli/main.js';
import { usageProblems } from './cli-usage.js';
import { blockCommands, type DocBlock, toranaInvocations } from './extract.js';
import { pageScript } from './page-script.js';
import { docBlocks } from './pages.js';

const pages = docBlocks();
const all: DocBlock[] = [...pages.values()].flat();

describe('doc shell blocks', () => {
  it('every shell block is marked run or skip with a reason', () => {
    const problems = all.flatMap((b) => {
      const at = `${b.page}:${b.line}`;
      if (b.untagged) return [`${at}: commands in a block without a language: tag it sh and mark it`];
      if (b.decision.kind === 'none')
        return [
          `${at}: no marker: add <!-- doc-example: run --> or <!-- doc-example: skip reason="…" --> before it`,
        ];
      if (b.decision.kind === 'invalid') return [`${at}: ${b.decision.problem}`];
      return [];
    });
    assert.deepEqual(problems, []);
    const run = all.filter((b) => b.decision.kind === 'run').length;
    console.log(`${pages.size} pages with shell blocks: ${run} run, ${all.length - run} skipped`);
  });

  it('each page of runnable blocks is a bash script without placeholders', () => {
    for (const [page, blocks] of pages) {
      if (!blocks.some((b) => b.decision.kind === 'run')) continue;
      const script = pageScript(blocks); // throws on a placeholder, naming its line
      const r = spawnSync('bash', ['-n'], { input: script, encoding: 'utf8' });
      assert.equal(r.status, 0, `${page}: bash -n: ${r.stderr}`);
    }
  });

  it('every torana command in a shell block is one the CLI declares, with its options', () => {
    const program = buildProgram();
    const problems: string[] = [];
    let n = 0;
    for (const b of all)
      for (const c of blockCommands(b))
        for (const args of toranaInvocations(c.code)) {
          n++;
          for (const p of usageProblems(program, args)) problems.push(`${c.page}:${c.line}: ${p}`);
        }
    assert.deepEqual(problems, []);
    assert.ok(n > 50, `found ${n} torana commands in the docs`);
    console.log(`${n} torana commands checked against the CLI`);
  });
});
