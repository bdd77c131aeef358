// The examples in examples/ run against a fresh node, so they cannot rot (README.md "SDK").

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { type ServedTestNode, startServedNode } from './helpers/served.js';

function runExample(
  file: string,
  env: Record<string, string>,
  args: string[] = [],
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `examples/${file}`, ...args], {
      env: { ...process.env, ...env },
      cwd: new URL('..', import.meta.url).pathname,
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

describe('examples', () => {
  let t: ServedTestNode;
  let env: Record<string, string>;
  before(async () => {
    t = await startServedNode();
    env = { LEDGER_URL: t.url, LEDGER_ACCOUNT: t.admin.id, LEDGER_KEY: t.admin.key.privateKeyText() };
  });
  after(async () => t.stopAll());

  it('submit-and-wait commits and reads the balance', async () => {
    const r = await runExample('submit-and-wait.ts', env);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /committed [0-9a-f]{64} in block \d+/);
    assert.match(r.out, /balance of coin#example\w+: 100\.00$/m, "the amount at the definition's scale");
  });

  it('follow-events prints the transactions it sees', async () => {
    const follower = runExample('follow-events.ts', env, ['--count', '1']);
    // The transaction commits once the follower's stream is open (its child process starts first).
    const streams = t.served.app.gateway.streams;
    for (const deadline = Date.now() + 60_000; streams.count('sse') === 0; ) {
      assert.ok(Date.now() < deadline, 'the follower opened its event stream');
      await new Promise((r) => setTimeout(r, 20));
    }
    const submit = await runExample('submit-and-wait.ts', env);
    assert.equal(submit.code, 0, submit.err);
    const r = await follower;
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /#\d+ [0-9a-f]{64} Committed in block \d+/);
  });

  it('query-paging lists every domain', async () => {
    const r = await runExample('query-paging.ts', env);
    assert.equal(r.code, 0, r.err);
    const lines = r.out.trim().split('\n');
    assert.match(lines.at(-1)!, /^\d+ domains$/);
    assert.ok(lines.includes('system'));
  });
});
