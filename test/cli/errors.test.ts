// How the CLI fails (docs/errors.md "Command line"): `--json` errors as one `{code, message, details}`
// document on stderr, usage errors exit 2, the code printed once, and a reader that stops early
// (`torana … | head`) ends the command quietly. Child processes where the pipe matters; the rest in-process.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../helpers/cli-in-process.js';
import { spawnCli } from '../helpers/run-cli.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';

/** Runs the CLI as a process whose stdout reader has gone away before it writes. */
function withClosedStdout(args: string[]): Promise<{ code: number | null; err: string }> {
  return new Promise((resolve) => {
    const child = spawnCli(args);
    child.stdout?.destroy();
    let err = '';
    child.stderr?.on('data', (d) => (err += d));
    child.on('close', (code) => resolve({ code, err }));
  });
}

describe('torana errors and exit codes', () => {
  let t: ServedTestNode;
  let common: string[];
  before(async () => {
    t = await startServedNode();
    common = ['--dir', t.dir, '--url', t.url];
  });
  after(async () => t.stopAll());

  it('ends quietly when the reader of its output goes away (`| head`)', async () => {
    for (const args of [
      ['asset', 'transfer', '--help'],
      ['status', ...common],
      ['query', 'domains', ...common],
    ]) {
      const r = await withClosedStdout(args);
      assert.equal(r.err, '', `${args[0]}: nothing on stderr`);
      assert.equal(r.code, 0, args.join(' '));
    }
  });

  it('exits 2 on usage errors, with a JSON error under --json', async () => {
    const text = await runCli(['asset', 'mint', '--nope', ...common]);
    assert.equal(text.code, 2);
    assert.match(text.err, /unknown option '--nope'/);
    const json = await runCli(['asset', 'mint', 'rose#wonderland', '--nope', '--json', ...common]);
    assert.equal(json.code, 2);
    assert.deepEqual(JSON.parse(json.err), {
      code: 'unknown_option',
      message: "unknown option '--nope'",
      details: {},
    });
    const missing = await runCli(['asset', 'mint', '--json', ...common]);
    assert.equal(missing.code, 2);
    assert.equal(JSON.parse(missing.err).code, 'missing_argument');
  });

  it('prints a gateway error with its code once, and as {code, message, details} under --json', async () => {
    const text = await runCli(['tx', 'status', 'ab'.repeat(32), ...common]);
    assert.equal(text.code, 1, text.err);
    const m = /^error \[([a-z_]+)\]: (.*)\n$/.exec(text.err);
    assert.ok(m, text.err);
    assert.ok(!m[2]!.startsWith(`${m[1]}:`), `the code is not repeated: ${text.err}`);
    const json = await runCli(['tx', 'status', 'ab'.repeat(32), ...common, '--json']);
    assert.equal(json.code, 1);
    const body = JSON.parse(json.err) as { code: string; message: string; details: Record<string, unknown> };
    assert.deepEqual(Object.keys(body), ['code', 'message', 'details']);
    assert.equal(body.code, m[1]);
    assert.equal(body.message, m[2]);
    assert.equal(body.details['http_status'], 404);
    assert.equal(json.out, '', 'nothing on stdout');
  });

  it('reports a rejection as exit 3 with the transaction in the details', async () => {
    const r = await runCli(['asset', 'define', 'rose#nowhere', ...common, '--json']);
    assert.equal(r.code, 3, r.err);
    const body = JSON.parse(r.err) as { code: string; message: string; details: { tx_hash: string } };
    assert.equal(body.code, 'domain_not_found');
    assert.match(body.details.tx_hash, /^[0-9a-f]{64}$/);
    assert.ok(!body.message.includes('domain_not_found:'), body.message);
  });
});
