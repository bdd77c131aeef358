// scripts/load.mjs: a command runs while N busy processes compete for the cores; they are running while
// it runs, stopped when it ends, and the exit code is the command's.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const ROOT = new URL('../..', import.meta.url).pathname;

function runLoad(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'scripts/load.mjs'), ...args], {
      env: { ...process.env, NODE_OPTIONS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('scripts/load.mjs', () => {
  it('runs the command beside N busy processes, stops them after, and exits with its code', async () => {
    // The command checks that every busy process is running while it runs, then exits 3.
    const check = [
      "const pids = process.env.LOAD_BUSY_PIDS.split(' ').map(Number);",
      'for (const p of pids) process.kill(p, 0);',
      "console.log(pids.length === 2 ? 'ok' : 'wrong count'); process.exit(3);",
    ].join('\n');
    const r = await runLoad(['2', '--', process.execPath, '-e', check]);
    assert.equal(r.code, 3, r.err);
    assert.equal(r.out.trim(), 'ok');
    const pids = (/pids ([\d ]+)\)/.exec(r.err)?.[1] ?? '').split(' ').map(Number);
    assert.equal(pids.length, 2, r.err);
    assert.match(r.err, /exit 3 after [\d.]+ s under 2 busy processes/);
    assert.deepEqual(
      pids.filter((p) => alive(p)),
      [],
      'no busy process outlives the command',
    );
  });

  it('refuses a missing count or command', async () => {
    assert.equal((await runLoad(['x', 'true'])).code, 2);
    assert.equal((await runLoad(['2'])).code, 2);
  });
});
