import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  ownerAlive,
  POSTGRES_MISSING,
  postgresBin,
  postgresTemplate,
  postgresTemplateDir,
  postmasterOf,
  processStartTime,
  sweepStalePostgres,
} from './postgres.js';
import { ROOT } from './ts-entry.js';

describe('postgresBin', () => {
  it('fails naming the Debian package when no PostgreSQL binaries are found', () => {
    assert.throws(() => postgresBin('/nonexistent/postgresql', '/nonexistent/bin'), {
      message: POSTGRES_MISSING,
    });
    assert.match(POSTGRES_MISSING, /Debian package `postgresql`/);
  });
});

describe('the initdb template', () => {
  it('is reused once made: a start copies it and runs no initdb', async () => {
    const root = mkdtempSync(join(tmpdir(), 'pg-template-'));
    try {
      // No initdb in this bin directory: only a finished template already in place can be answered.
      const bin = '/nonexistent/bin';
      await assert.rejects(postgresTemplate(bin, undefined, root), /initdb/);
      assert.deepEqual(readdirSync(root), [], 'a failed initdb leaves no half-made template');
      const made = join(postgresTemplateDir(bin, undefined, root), 'data');
      mkdirSync(made, { recursive: true });
      writeFileSync(join(made, 'PG_VERSION'), '15\n');
      assert.equal(await postgresTemplate(bin, undefined, root), made);
      // Another bin directory (or user) has a template of its own.
      assert.notEqual(
        postgresTemplateDir('/other/bin', undefined, root),
        postgresTemplateDir(bin, undefined, root),
      );
      assert.notEqual(
        postgresTemplateDir(bin, { uid: 12345, gid: 1 }, root),
        postgresTemplateDir(bin, undefined, root),
      );
      // A template without PG_VERSION is no finished initdb output: never used.
      rmSync(join(made, 'PG_VERSION'));
      await assert.rejects(postgresTemplate(bin, undefined, root), /initdb/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('is left alone by the sweep (it holds no server and no owner)', () => {
    const root = mkdtempSync(join(tmpdir(), 'pg-sweep-'));
    try {
      const template = postgresTemplateDir('/some/bin', undefined, root);
      mkdirSync(join(template, 'data'), { recursive: true });
      writeFileSync(join(template, 'data', 'PG_VERSION'), '15\n');
      assert.deepEqual(sweepStalePostgres(root), []);
      assert.equal(existsSync(template), true);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('a test PostgreSQL is never leaked', { timeout: 120_000 }, () => {
  it('an owner is its pid and start time: the same pid with another start time is gone', () => {
    const start = processStartTime(process.pid);
    assert.ok(start !== undefined && /^\d+$/.test(start), String(start));
    assert.equal(ownerAlive(`${process.pid} ${start}`), true);
    assert.equal(ownerAlive(`${process.pid} ${Number(start) + 1}`), false, 'a reused pid is not the owner');
    assert.equal(ownerAlive('999999999 1'), false);
    assert.equal(ownerAlive(''), false);
  });

  it('the sweep removes a dead owner’s directory and never signals a pid that is not its server', () => {
    const root = mkdtempSync(join(tmpdir(), 'pg-sweep-'));
    try {
      const dead = join(root, 'torana-pg-dead');
      const live = join(root, 'torana-pg-live');
      mkdirSync(join(dead, 'data'), { recursive: true });
      mkdirSync(live);
      // The dead owner's postmaster.pid names this very test process (a reused pid): its command line
      // does not name the data directory, so it is not signalled (this test would die of SIGQUIT).
      writeFileSync(join(dead, 'owner'), `${process.pid} 1\n`);
      writeFileSync(join(dead, 'data', 'postmaster.pid'), `${process.pid}\n${join(dead, 'data')}\n`);
      assert.equal(postmasterOf(join(dead, 'data')), undefined);
      writeFileSync(join(live, 'owner'), `${process.pid} ${processStartTime(process.pid)}\n`);
      assert.deepEqual(sweepStalePostgres(root), [dead]);
      assert.equal(existsSync(dead), false);
      assert.equal(existsSync(live), true);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('a test process killed with SIGKILL leaves no server and no directory behind', async () => {
    // A child process starts a server with the helper, prints its directory and postmaster pid, and is
    // killed -9; the watchdog sees its pipe close.
    const helper = join(ROOT, 'test/helpers/postgres.ts');
    const code = `import { startPostgres, postmasterOf } from ${JSON.stringify(helper)};
      const p = await startPostgres();
      console.log(JSON.stringify({ dir: p.dir, pid: postmasterOf(p.dir + '/data') }));
      setInterval(() => {}, 1 << 30);`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    const started = await new Promise<{ dir: string; pid: number }>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        out += d;
        if (out.includes('\n')) resolve(JSON.parse(out));
      });
      child.once('exit', (c) => reject(new Error(`the child exited (${c}) before its server ran: ${out}`)));
    });
    assert.ok(Number.isSafeInteger(started.pid), JSON.stringify(started));
    assert.equal(postmasterOf(join(started.dir, 'data')), started.pid, 'the server runs');
    child.kill('SIGKILL');
    const deadline = Date.now() + 60_000;
    while (processStartTime(started.pid) !== undefined || existsSync(started.dir)) {
      assert.ok(Date.now() < deadline, `server ${started.pid} or ${started.dir} still there`);
      await new Promise((r) => setTimeout(r, 100));
    }
    process.stdout.write(
      `postgres ${started.pid} stopped and ${started.dir} removed after the owner's kill -9\n`,
    );
  });
});
