import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { closeLmdb, settleCommitError } from './lmdb-writes.js';

/** Runs test/fixtures/storage/lmdb-full-disk.ts with files limited to 1 MiB (`ulimit -f`): LMDB's writes then fail. */
function runFilled(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const fixture = new URL('../../test/fixtures/storage/lmdb-full-disk.ts', import.meta.url).pathname;
  return new Promise((resolve, reject) => {
    const child = spawn(
      'bash',
      ['-c', 'ulimit -f 1024 && exec "$0" "$@"', process.execPath, '--import', 'tsx', fixture],
      { stdio: ['ignore', 'pipe', 'pipe'], timeout: 180_000 },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('LMDB writes on a full disk', () => {
  it('fail each store with its own error: no unhandled rejection, the process stays up, closes return', async () => {
    const r = await runFilled();
    process.stdout.write(r.stdout);
    assert.doesNotMatch(r.stdout, /^unhandled/m, r.stdout);
    assert.equal(r.code, 0, `the child ended with ${r.code}\n${r.stdout}\n${r.stderr.slice(-2000)}`);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual(
      lines.map((l) => l.store),
      ['state', 'webhooks', 'bridge'],
    );
    const [state, hooks, bridge] = lines as [Record<string, unknown>, ...Record<string, unknown>[]];
    // The state store: the failed commit is storage_failed, and so is every commit after it.
    assert.match(String(state.error), /state write failed/);
    assert.match(String(state.again), /an earlier flush failed/);
    assert.match(String(hooks!.error), /Commit failed/);
    assert.equal(hooks!.healthy, false);
    assert.match(String(bridge!.error), /the bridge record store failed/);
    assert.equal(bridge!.healthy, false);
    for (const l of lines) assert.ok(Number(l.round) > 1, `${l.store} failed on its first write`);
  });

  it('settleCommitError handles the second promise and ignores anything else', async () => {
    let rejected = false;
    const commitError = Promise.reject(new Error('ENOSPC'));
    settleCommitError(Object.assign(new Error('Commit failed'), { commitError }));
    await commitError.catch(() => {
      rejected = true;
    });
    assert.ok(rejected);
    for (const e of [undefined, null, 'text', new Error('plain'), { commitError: 'not a promise' }])
      settleCommitError(e);
  });

  it('closeLmdb waits for a healthy close and only starts a failed one', async () => {
    let closed = false;
    const close = async () => {
      await Promise.resolve();
      closed = true;
    };
    await closeLmdb({ close }, false);
    assert.ok(closed);
    let started = false;
    await closeLmdb(
      {
        close: () => {
          started = true;
          return new Promise<void>(() => undefined);
        },
      },
      true,
    );
    assert.ok(started);
  });
});
