// Every path a comment or a document cites must exist in the repository, so a reader of a clone can
// follow it: `src/…`, `test/…`, `docs/…`, `bench/…`, `scripts/…`, `examples/…`, `circuits/…`, `zk/…`
// followed by a file name with an extension. Text inside generated or vendored files is not checked.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const ROOT = new URL('../..', import.meta.url).pathname;
const TEXT = /\.(ts|mjs|js|md|json|toml|circom)$/;
const SKIP = /^(package-lock\.json|CHANGELOG\.md|bench\/results\/|zk\/artifacts\/)/;
/** A repository path: a top folder, then path characters, then an extension. */
const CITED =
  /(?<![\w./-])(src|test|docs|bench|scripts|examples|circuits|zk)\/[\w./-]+\.(ts|md|mjs|json|circom|toml|js)\b/g;

function trackedFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return [...new Set(out.split('\0').filter((f) => f !== '' && TEXT.test(f) && !SKIP.test(f)))];
}

/** Paths that name what a test or a command writes, not a file of the repository. */
function isGenerated(path: string): boolean {
  return path.includes('*') || path.includes('<') || /\/(tmp|out)\//.test(path);
}

describe('citations', () => {
  it('the pattern finds repository paths and nothing else', () => {
    const text = 'see src/state/root.ts and (docs/codec.md §3), not mysrc/x.ts or a.src/b.ts';
    assert.deepEqual(
      [...text.matchAll(CITED)].map((m) => m[0]),
      ['src/state/root.ts', 'docs/codec.md'],
    );
  });

  it('every path a file cites exists', () => {
    const missing: string[] = [];
    for (const file of trackedFiles()) {
      const path = join(ROOT, file);
      if (!existsSync(path)) continue;
      readFileSync(path, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          for (const m of line.matchAll(CITED)) {
            const cited = m[0].replace(/\.$/, '');
            if (isGenerated(cited) || existsSync(join(ROOT, cited))) continue;
            missing.push(`${file}:${i + 1}: ${cited}`);
          }
        });
    }
    assert.deepEqual(missing, [], `cited paths that do not exist:\n${missing.join('\n')}`);
  });
});
