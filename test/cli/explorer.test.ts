// `torana explorer …` against a served node with a small world: the listing commands run in this process
// (test/helpers/cli-in-process.ts), `explorer watch`, which runs until it is stopped, as a child process.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { numeric } from '../../src/model/numeric.js';
import { type AppFixture, startAppFixture } from '../gateway/app-fixture.js';
import { runCli as cli } from '../helpers/cli-in-process.js';
import { run } from '../helpers/node.js';
import { spawnCli } from '../helpers/run-cli.js';

describe('torana explorer', () => {
  let f: AppFixture;
  let common: string[];
  before(async () => {
    f = await startAppFixture();
    common = ['--dir', f.t.dir, '--url', f.t.url];
  });
  after(async () => f?.t.stopAll());

  it('lists with filters as JSON and as a table, and exits non-zero on a refused filter', async () => {
    const rejected = await cli(['explorer', 'txs', '--status', 'rejected', '--json', ...common]);
    assert.equal(rejected.code, 0, rejected.err);
    const doc = JSON.parse(rejected.out);
    assert.deepEqual(
      doc.items.map((t: { hash: string }) => t.hash),
      [f.hashes.rejected],
    );
    const table = await cli(['explorer', 'blocks', '--per-page', '2', ...common]);
    assert.equal(table.code, 0, table.err);
    assert.match(table.out.split('\n')[0]!, /^HEIGHT\s+HASH\s+CREATION_TIME\s/);
    assert.match(table.err, /page 1 of \d+/);
    const bad = await cli(['explorer', 'txs', '--status', 'maybe', ...common]);
    assert.notEqual(bad.code, 0);
    assert.match(bad.err, /bad_request/);
  });

  it('watches a stream and prints each new item as it is committed', async () => {
    const child = spawnCli(['explorer', 'watch', 'transactions', '--json', ...common]);
    let out = '';
    child.stdout?.on('data', (d) => (out += d));
    try {
      // Once the stream is open, commit: the item must arrive.
      const streams = f.t.served.app.gateway.streams;
      const open = Date.now() + 15_000;
      while (streams.count('sse') === 0 && Date.now() < open) await new Promise((r) => setTimeout(r, 20));
      const tx = await run(f.t, f.t.admin, [
        { kind: 'MintAsset', asset: `gas#system#${f.t.admin.id}`, amount: numeric('1') },
      ]);
      const deadline = Date.now() + 10_000;
      while (!out.includes(tx.hash) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const line = JSON.parse(out.trim().split('\n').at(-1)!);
      assert.deepEqual([line.id, line.hash], [`${tx.height}:0`, tx.hash]);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
