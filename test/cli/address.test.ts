// A CLI given only `--dir D` finds the node running in D (after `torana init --dir D` and
// `torana start --dir D --port P`, the CLI in D once called the init port and failed with
// transport_error). Real processes: the node leaves <dir>/node.json while it runs, removes it on a
// clean stop, and a file left by `kill -9` is detected as stale. The node runs as a child process (its
// exit is what is checked); the commands that find it run in this process (test/helpers/cli-in-process.ts).
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli as cli } from '../helpers/cli-in-process.js';
import { spawnCli } from '../helpers/run-cli.js';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

const exists = (p: string) =>
  access(p).then(
    () => true,
    () => false,
  );

async function startNode(dir: string, port: number): Promise<{ child: ChildProcess; url: string }> {
  const child = spawnCli(['start', '--dir', dir, '--port', String(port), '--json']);
  let err = '';
  child.stderr?.on('data', (d) => (err += d));
  child.stdout?.resume();
  const file = join(dir, 'node.json');
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
    if (await exists(file))
      return { child, url: (JSON.parse(await readFile(file, 'utf8')) as { url: string }).url };
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`the node did not write node.json: ${err}`);
}

const exited = (child: ChildProcess) =>
  new Promise<void>((r) =>
    child.exitCode !== null || child.signalCode !== null ? r() : child.once('exit', () => r()),
  );

describe('the CLI finds the node running in --dir', () => {
  let dir: string;
  let initPort: number;
  let children: ChildProcess[] = [];
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'torana-address-'));
    initPort = await freePort();
    const r = await cli(['init', '--dir', dir, '--port', String(initPort), '--json']);
    assert.equal(r.code, 0, r.err);
  });
  after(async () => {
    for (const c of children) c.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });

  it('drives a node started with --port using --dir alone, and forgets it on a clean stop', async () => {
    const port = await freePort();
    const { child, url } = await startNode(dir, port);
    children.push(child);
    assert.equal(url, `http://127.0.0.1:${port}`);
    const status = await cli(['status', '--dir', dir, '--json']);
    assert.equal(status.code, 0, status.err);
    assert.equal(JSON.parse(status.out).blocks >= 1, true);
    const tx = await cli(['domain', 'register', 'wonderland', '--dir', dir, '--json']);
    assert.equal(tx.code, 0, tx.err);
    assert.equal(JSON.parse(tx.out).status, 'Committed');
    const again = await cli(['start', '--dir', dir, '--port', String(await freePort())]);
    assert.equal(again.code, 1);
    assert.match(again.err, /node_running/);

    child.kill('SIGTERM');
    await exited(child);
    assert.equal(await exists(join(dir, 'node.json')), false, 'node.json removed on a clean stop');
  });

  it('detects the address file of a node killed with SIGKILL as stale', async () => {
    const { child } = await startNode(dir, await freePort());
    children.push(child);
    child.kill('SIGKILL');
    await exited(child);
    assert.equal(await exists(join(dir, 'node.json')), true, 'a crash leaves the file behind');
    const status = await cli(['status', '--dir', dir]);
    assert.equal(status.code, 1);
    assert.match(status.err, /note: ignoring .*node\.json: its node \(pid \d+\) is not running/);
    assert.match(status.err, new RegExp(`transport_error.*127\\.0\\.0\\.1:${initPort}`));
    children = [];
  });
});
