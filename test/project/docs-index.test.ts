// A reader finds every page from an index: each page of docs/ is linked from the README's "Contents",
// each page of docs/design/ from docs/design/README.md, and each folder of src/ has a README of
// its own (the README's folder table is generated from those: test/project/readme.test.ts).

import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const ROOT = new URL('../..', import.meta.url).pathname;

/** The markdown pages directly in `dir` (relative to the repository). */
function pages(dir: string): string[] {
  return readdirSync(join(ROOT, dir))
    .filter((n) => n.endsWith('.md') && statSync(join(ROOT, dir, n)).isFile())
    .sort();
}

/** The link targets of `text` (`[label](target)`), anchors dropped. */
export function linkTargets(text: string): Set<string> {
  return new Set([...text.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!));
}

/** The README's "Contents" section: from its heading to the next one. */
export function contentsSection(readme: string): string {
  const start = readme.indexOf('\n## Contents\n');
  assert.ok(start >= 0, 'README.md has no "## Contents" section');
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

/** Pages of `dir` that `index` does not link to, as `dir/page` (links relative to `base`). */
function unlisted(index: string, dir: string, base: string, skip: readonly string[] = []): string[] {
  const targets = linkTargets(index);
  return pages(dir)
    .filter((p) => !skip.includes(p))
    .map((p) => `${dir}/${p}`)
    .filter((p) => !targets.has(base === '' ? p : p.slice(base.length + 1)));
}

function folders(dir: string): string[] {
  return readdirSync(join(ROOT, dir))
    .filter((n) => statSync(join(ROOT, dir, n)).isDirectory())
    .sort();
}

describe('docs index and folder READMEs', () => {
  it('link targets are read from the Contents section alone', () => {
    const readme =
      '# x\n\n## Contents\n\n- [a](docs/codec.md), [b](docs/errors.md#part)\n\n## SDK\n\n[c](docs/mcp.md)\n';
    assert.deepEqual([...linkTargets(contentsSection(readme))], ['docs/codec.md', 'docs/errors.md']);
  });

  it("every page of docs/ is linked from the README's Contents", () => {
    const contents = contentsSection(readFileSync(join(ROOT, 'README.md'), 'utf8'));
    const missing = unlisted(contents, 'docs', '');
    assert.deepEqual(missing, [], `pages the README's Contents does not link:\n${missing.join('\n')}`);
  });

  it('every page of docs/design/ is linked from docs/design/README.md', () => {
    const index = readFileSync(join(ROOT, 'docs/design/README.md'), 'utf8');
    const missing = unlisted(index, 'docs/design', 'docs/design', ['README.md']);
    assert.deepEqual(missing, [], `design pages docs/design/README.md does not link:\n${missing.join('\n')}`);
  });

  it('every folder of src/ has a README', () => {
    const missing = folders('src')
      .map((f) => `src/${f}`)
      .filter((f) => !existsSync(join(ROOT, f, 'README.md')));
    assert.deepEqual(missing, [], `folders without a README.md:\n${missing.join('\n')}`);
  });
});
