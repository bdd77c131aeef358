// The README's folder table and benchmark table are generated from their sources (each folder's README,
// bench/results/latest.json) by scripts/readme-sections.mjs; this test fails when the README has drifted.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
// @ts-expect-error: a plain ES module script without types
import { benchTable, render, sections, summary } from '../../scripts/readme-sections.mjs';

const README = new URL('../../README.md', import.meta.url);

describe('README generated sections', () => {
  it('a folder summary is the first sentence without parentheses or links', () => {
    assert.equal(
      summary('# x\n\nThe codec (see [the spec](../../docs/codec.md)), specified. More here.\n'),
      'The codec, specified',
    );
  });

  it('a missed goal shows as missed', () => {
    const table: string = benchTable({
      figures: [
        { id: 'f', value: 1, unit: 'x', baseline: 'b', baseline_value: 2, ratio: 0.5, goal: 'g', met: false },
      ],
    });
    assert.match(table, /\| `f` \| 1 x \| b: 2 \| 0\.5 \| g \| \*\*no\*\* \|/);
  });

  it("the README's SDK snippet reads the same environment variables as examples/ (LEDGER_*)", () => {
    const envOf = (text: string) => new Set([...text.matchAll(/process\.env\.([A-Z_]+)/g)].map((m) => m[1]));
    const readme = envOf(readFileSync(README, 'utf8'));
    const examples = envOf(readFileSync(new URL('../../examples/env.ts', import.meta.url), 'utf8'));
    assert.ok(readme.size > 0, 'the README snippet reads a key from the environment');
    for (const name of readme) assert.ok(examples.has(name), `README uses ${name}, examples/ do not`);
  });

  it('the README matches its sources', () => {
    const readme = readFileSync(README, 'utf8');
    assert.equal(render(readme, sections()), readme, 'run node scripts/readme-sections.mjs');
  });
});
