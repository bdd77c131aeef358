// Online backup and restore (docs/operations.md "Backups and restores"): `torana backup create` copies a
// node's data from another process while transactions keep committing; the backup verifies against its
// manifest and a changed byte is caught; `backup restore` refuses a non-empty data directory unless
// --replace; `torana verify` accepts the restored directory and a node started on it has the chain up to
// the backup's block log height, block for block. `backup create` and `verify` run as child processes
// (the copy is read from another process than the node's; verify starts its worker threads), `backup
// verify` and `restore` in this process (test/helpers/cli-in-process.ts).

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { instructions as ix } from '../../src/sdk/instructions.js';
import { runCli } from '../helpers/cli-in-process.js';
import { run, startTestNode, type TestNode } from '../helpers/node.js';
import { ROOT, tsEntryArgs } from '../helpers/ts-entry.js';

function cli(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...tsEntryArgs('test/helpers/torana-cli.ts'), ...args], {
      cwd: ROOT,
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

describe('torana backup', () => {
  const work = mkdtempSync(join(tmpdir(), 'torana-backup-'));
  const backup = join(work, 'backup');
  const restored = join(work, 'restored');
  let t: TestNode;
  let manifest: { state_height: number; block_log_height: number };
  before(async () => {
    t = await startTestNode();
  });
  after(async () => {
    await t?.cleanup();
    rmSync(work, { recursive: true, force: true });
  });

  it('backs up a running node while blocks keep committing', async () => {
    for (let i = 0; i < 5; i++) await run(t, t.admin, [ix.registerDomain(`before${i}`)]);
    let writing = true;
    const writer = (async () => {
      let i = 0;
      while (writing) await run(t, t.admin, [ix.registerDomain(`during${i++}`)]);
      return i;
    })();
    const r = await cli(['backup', 'create', '--dir', t.dir, '--to', backup, '--json']);
    writing = false;
    await writer;
    assert.equal(r.code, 0, r.err);
    manifest = JSON.parse(r.out) as typeof manifest;
    assert.ok(manifest.state_height >= 6, r.out);
    assert.ok(manifest.block_log_height >= manifest.state_height, r.out);
    assert.ok(t.node.ledger.height() >= manifest.block_log_height);
    assert.ok(!readdirSync(backup).some((f) => f.endsWith('.key.json')), 'keys are not in a backup');
  });

  it('verifies, and refuses a backup with a changed byte', async () => {
    assert.equal((await runCli(['backup', 'verify', '--from', backup])).code, 0);
    const spoiled = join(work, 'spoiled');
    cpSync(backup, spoiled, { recursive: true });
    assert.equal((await runCli(['backup', 'verify', '--from', spoiled])).code, 0, 'an exact copy verifies');
    const seg = join(spoiled, 'data', 'blocks', readdirSync(join(spoiled, 'data', 'blocks'))[0]!);
    const bytes = readFileSync(seg);
    bytes[bytes.length - 1]! ^= 1;
    writeFileSync(seg, bytes);
    const r = await runCli(['backup', 'verify', '--from', spoiled]);
    assert.equal(r.code, 1);
    assert.match(r.err, /backup_file_mismatch.*SHA-256/);
  });

  it('restores into a node directory that `torana verify` accepts', async () => {
    mkdirSync(restored);
    for (const f of readdirSync(t.dir))
      if (f.endsWith('.json') || f === 'config.toml') copyFileSync(join(t.dir, f), join(restored, f));
    const r = await runCli(['backup', 'restore', '--from', backup, '--dir', restored, '--json']);
    assert.equal(r.code, 0, r.err);
    const again = await runCli(['backup', 'restore', '--from', backup, '--dir', restored]);
    assert.equal(again.code, 1);
    assert.match(again.err, /restore_target_not_empty/);
    const v = await cli(['verify', '--dir', restored, '--json']);
    assert.equal(v.code, 0, v.err);
    const report = JSON.parse(v.out) as { match: boolean; height: number };
    assert.equal(report.match, true);
    assert.equal(report.height, manifest.block_log_height);
  });

  it('starts on the restored data with the same chain as the original', async () => {
    const copy = await startTestNodeIn(restored);
    try {
      const h = copy.ledger.height();
      assert.equal(h, manifest.block_log_height);
      assert.ok(h > 0);
      assert.deepEqual(copy.ledger.blockSync(h), t.node.ledger.blockSync(h));
    } finally {
      await copy.stop();
    }
  });
});

async function startTestNodeIn(dir: string) {
  const { loadNodeConfig } = await import('../../src/node/load-config.js');
  const { Node } = await import('../../src/node/node.js');
  const config = await loadNodeConfig({ dir, overrides: { 'verify.threads': 0, 'log.level': 'silent' } });
  return Node.start({ dir, config });
}
