// The timing bounds that `npm test` only prints (test/helpers/timing-bound.ts): every test file outside
// test/reliability/ that calls timingBound() runs again here with TEST_TIMING_BOUNDS=1, where each bound
// (latency, throughput, elapsed time) is asserted. A file whose figure is outside its bound fails here.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { TIMING_BOUNDS_ENV } from '../helpers/timing-bound.js';

const ROOT = new URL('../..', import.meta.url).pathname;

function walk(dir: string, out: string[]): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (name.endsWith('.test.ts')) out.push(relative(ROOT, p));
  }
  return out;
}

/**
 * The files `npm test` runs that hand a figure to timingBound(), themselves or through a module they
 * import (e.g. src/codec/laws.test.ts's decodeTimed, used by every codec's law tests).
 */
export function filesWithTimingBounds(): string[] {
  const all = [...walk(join(ROOT, 'src'), []), ...walk(join(ROOT, 'test'), [])].filter(
    (f) => !f.startsWith('test/reliability/'),
  );
  const text = new Map(all.map((f) => [f, readFileSync(join(ROOT, f), 'utf8')]));
  const measuring = new Set(all.filter((f) => text.get(f)!.includes('timingBound(')));
  const importsMeasuring = (f: string) =>
    [...text.get(f)!.matchAll(/from '(\.[^']+)\.js'/g)].some((m) =>
      measuring.has(relative(ROOT, join(ROOT, dirname(f), `${m[1]}.ts`))),
    );
  return all.filter((f) => measuring.has(f) || importsMeasuring(f)).sort();
}

function runBounded(file: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-timeout=600000', file], {
      cwd: ROOT,
      // Not NODE_TEST_CONTEXT: the file reports as a run of its own, not as a child of this test.
      env: { ...process.env, NODE_TEST_CONTEXT: undefined, [TIMING_BOUNDS_ENV]: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ code, out }));
  });
}

describe('timing bounds (the figures npm test prints, asserted)', () => {
  const files = filesWithTimingBounds();

  it('finds the files that measure a figure', () => {
    assert.ok(files.length >= 5, `only ${files.length} files call timingBound(): ${files.join(', ')}`);
  });

  for (const file of files) {
    it(`${file} within its bounds`, async () => {
      const { code, out } = await runBounded(file);
      for (const line of out.split('\n')) if (line.includes('[timing]')) console.log(line.trim());
      const failures = out
        .split('\n')
        .filter((l) => /bound [<>]/.test(l) && !l.includes('[timing]'))
        .slice(0, 10);
      assert.equal(
        code,
        0,
        `${file} failed with its bounds asserted:\n${failures.join('\n')}\n${out.slice(-4000)}`,
      );
    });
  }
});
