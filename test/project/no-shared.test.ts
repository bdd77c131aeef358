// A clone of this repository must work with nothing beside it: no project file may name
// the developers' side folder of specs and schemas, not even in a comment, because a path in a
// comment is how a run-time read starts. The pattern is built from parts so that this file, which
// is checked like every other, does not spell it.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const ROOT = new URL('../..', import.meta.url).pathname;
const SIDE = ['sha', 'red'].join('');
/** `../<side>`, `..\<side>`, `/work/<side>`, or `<side>/` followed by one of its folders. */
const FORBIDDEN = new RegExp(
  String.raw`\.\.[/\\]${SIDE}\b|/work/${SIDE}\b|\b${SIDE}/(?:iso20022|spec|design|hooks)\b`,
);

/** Tracked files plus new files not yet committed (ignored ones such as dist/ excluded). */
function projectFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return [...new Set(out.split('\0').filter((f) => f !== ''))];
}

describe('the project stands alone', () => {
  it('the pattern catches every way of naming the side folder', () => {
    for (const hit of [
      `../${SIDE}/iso20022/xsd/`,
      `..\\${SIDE}`,
      `/work/${SIDE}/x`,
      [SIDE, 'spec', 'a.md'].join('/'),
    ]) {
      assert.match(hit, FORBIDDEN);
    }
    for (const miss of [`${SIDE} by two tests`, `src/${SIDE}-state.ts`, 'test/iso20022/xsd/']) {
      assert.doesNotMatch(miss, FORBIDDEN);
    }
  });

  it('no file of the project names it', () => {
    const files = projectFiles();
    assert.ok(files.length > 100, `git ls-files listed only ${files.length} files`);
    const offenders: string[] = [];
    for (const file of files) {
      const path = join(ROOT, file);
      // Deleted in the work tree and not yet committed, or not a file (a worktree's node_modules link).
      if (!existsSync(path) || !lstatSync(path).isFile()) continue;
      const lines = readFileSync(path, 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (FORBIDDEN.test(line)) offenders.push(`${file}:${i + 1}: ${line.trim().slice(0, 120)}`);
      });
    }
    assert.deepEqual(offenders, [], `files that name the side folder:\n${offenders.join('\n')}`);
  });
});
