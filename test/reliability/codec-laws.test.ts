// The codec property laws of every registered model type at full size: `npm test` runs
// src/model/codec-laws.test.ts with fewer runs per law (16, 6 for the large composite types); here the
// same file runs again with CODEC_LAWS_FULL=1 (40 and 15 runs), in a process of its own.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';

const ROOT = new URL('../..', import.meta.url).pathname;
const FILE = 'src/model/codec-laws.test.ts';

function runFull(): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-timeout=1200000', FILE], {
      cwd: ROOT,
      // Not NODE_TEST_CONTEXT: the file reports as a run of its own, not as a child of this test.
      env: { ...process.env, NODE_TEST_CONTEXT: undefined, CODEC_LAWS_FULL: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ code, out }));
  });
}

describe('codec property laws of every model type (full size)', () => {
  it(`${FILE} passes with CODEC_LAWS_FULL=1`, async () => {
    const { code, out } = await runFull();
    const tests = /^# tests (\d+)$/m.exec(out)?.[1];
    console.log(`[figure] codec laws at full size: ${tests ?? '?'} tests, exit ${code}`);
    assert.equal(code, 0, out.slice(-4000));
    assert.ok(Number(tests) > 100, `${tests} tests ran`);
  });
});
