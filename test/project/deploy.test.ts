// The deployment files shipped in the package (deploy/, docs/operations.md): the systemd unit passes
// systemd's own checker, the unit and the container image start the node with options the CLI has, and
// the package carries them.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ROOT, tsEntryArgs } from '../helpers/ts-entry.js';

const read = (p: string) => readFileSync(join(ROOT, p), 'utf8');

describe('deployment files', () => {
  it('the package ships deploy/', () => {
    const pkg = JSON.parse(read('package.json')) as { files: string[] };
    assert.ok(pkg.files.includes('deploy/'), JSON.stringify(pkg.files));
  });

  it('the systemd unit passes systemd-analyze verify', (t) => {
    if (spawnSync('systemd-analyze', ['--version']).error !== undefined) {
      t.skip('systemd-analyze not installed (Debian package systemd): the unit was not checked');
      return;
    }
    const dir = mkdtempSync(join(tmpdir(), 'torana-unit-'));
    try {
      // The unit names the installed binary; point it at this checkout's so the check can find it.
      const unit = read('deploy/systemd/torana.service').replace(
        '/usr/local/bin/torana',
        join(ROOT, 'bin/torana.js'),
      );
      writeFileSync(join(dir, 'torana.service'), unit);
      const r = spawnSync('systemd-analyze', ['verify', join(dir, 'torana.service')], { encoding: 'utf8' });
      const complaints = `${r.stdout}${r.stderr}`
        .split('\n')
        .filter((l) => l.includes('torana.service') || /unknown|invalid|bad/i.test(l));
      assert.deepEqual(complaints, []);
      assert.equal(r.status, 0, r.stderr);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the unit and the image start the node with options `torana start` has', () => {
    const unit = read('deploy/systemd/torana.service');
    const exec = /^ExecStart=\S+ (.+)$/m.exec(unit)?.[1]?.split(' ') ?? [];
    const image = read('deploy/Containerfile');
    const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(image)?.[1] ?? '[]') as string[];
    assert.deepEqual(exec.slice(0, 1), ['start']);
    assert.deepEqual(cmd.slice(0, 1), ['start']);
    const help = spawnSync(
      process.execPath,
      [...tsEntryArgs('test/helpers/torana-cli.ts'), 'start', '--help'],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    );
    assert.equal(help.status, 0, help.stderr);
    for (const flag of [...exec, ...cmd].filter((a) => a.startsWith('--')))
      assert.ok(help.stdout.includes(flag), `torana start has no ${flag}`);
  });
});
