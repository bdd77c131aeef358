// Test helper: a PostgreSQL server of its own in a temporary directory (Debian's `postgresql` package;
// CI installs it), listening only on a unix socket there, stopped and removed by `stop()`. initdb and
// postgres refuse to run as root: as root they run as the `postgres` user (or `nobody`), which owns the
// directory.
//
// Never leaked: pg_ctl starts the server detached from the test, so a test process killed (SIGKILL,
// a runner's timeout) would leave it running. Two guards:
// - a watchdog (`sh`, its own process group) holds the read end of a pipe from the test process and
//   stops the server and removes the directory when the pipe closes: when `stop()` closes it, or when
//   the kernel does because the test process died, however it died;
// - each start first sweeps the servers of earlier runs whose owner is gone (the watchdog itself was
//   killed): the owner is recorded as pid and start time (/proc/<pid>/stat), so a pid reused by another
//   process does not count as the owner, and a server is signalled only when /proc/<pid>/cmdline of the
//   pid in its postmaster.pid names its own data directory (a reused pid is never signalled).
//
// initdb is the slow part of a start (seconds on a loaded machine): it runs once, into a template data
// directory beside the servers' (`torana-pgtemplate-<key>`, the key a hash of the binaries' directory,
// initdb's arguments and the user it runs as), and every start copies that directory. The template is
// made in a directory of its own and renamed into place, so a start never copies a half-made one; it
// holds no server and no owner, so the sweep leaves it alone. A template that is not a finished initdb
// output (no PG_VERSION) is never used.

import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chownSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export const POSTGRES_MISSING =
  'PostgreSQL server binaries (initdb, pg_ctl) not found: install the Debian package `postgresql` ' +
  '(apt-get install postgresql); .ci/run installs it';

export interface TestPostgres {
  dir: string;
  /** libpq conninfo of the database `dbname` (default postgres), as `torana index --pg` takes it. */
  conninfo(dbname?: string): string;
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    sql: string,
    params?: unknown[],
    dbname?: string,
  ): Promise<R[]>;
  createDatabase(name: string): Promise<void>;
  stop(): Promise<void>;
}

/** The directory of initdb and pg_ctl: Debian's newest /usr/lib/postgresql/<v>/bin, or the PATH. */
export function postgresBin(root = '/usr/lib/postgresql', path = process.env.PATH ?? ''): string {
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions.length > 0) return join(root, versions[0]!, 'bin');
  }
  for (const dir of path.split(':'))
    if (dir !== '' && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) return dir;
  throw new Error(POSTGRES_MISSING);
}

function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const user of ['postgres', 'nobody']) {
    try {
      const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim());
      return { uid, gid };
    } catch {}
  }
  throw new Error('running as root, and neither the postgres nor the nobody user exists to run PostgreSQL');
}

function run(file: string, args: string[], as: { uid: number; gid: number } | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ['ignore', 'ignore', 'pipe'], ...(as ?? {}) });
    let err = '';
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${file} ${args.join(' ')} exited ${code}: ${err}`)),
    );
  });
}

const DIR_PREFIX = 'torana-pg-';
const OWNER_FILE = 'owner';
const TEMPLATE_PREFIX = 'torana-pgtemplate-';
const INITDB_ARGS = ['-U', 'torana', '--auth=trust', '-E', 'UTF8', '--no-sync'];

/** Where the template of `bin` run as `as` lives in `root` (it may not exist yet). */
export function postgresTemplateDir(
  bin: string,
  as: { uid: number; gid: number } | undefined,
  root = tmpdir(),
): string {
  const key = createHash('sha256')
    .update(JSON.stringify([bin, INITDB_ARGS, as?.uid ?? process.getuid?.()]))
    .digest('hex')
    .slice(0, 16);
  return join(root, `${TEMPLATE_PREFIX}${key}`);
}

/**
 * The template data directory for `bin` run as `as` in `root` (default the temporary directory): made
 * by initdb the first time, reused after. Returns its data directory.
 */
export async function postgresTemplate(
  bin: string,
  as: { uid: number; gid: number } | undefined,
  root = tmpdir(),
): Promise<string> {
  const final = postgresTemplateDir(bin, as, root);
  if (existsSync(join(final, 'data', 'PG_VERSION'))) return join(final, 'data');
  const building = await mkdtemp(`${final}-building-`);
  try {
    if (as !== undefined) chownSync(building, as.uid, as.gid);
    await run(join(bin, 'initdb'), ['-D', join(building, 'data'), ...INITDB_ARGS], as);
    try {
      renameSync(building, final);
    } catch (e) {
      // Another process put its template in place first: that one is used. A directory in its place
      // that is no finished initdb output (emptied by hand) is replaced.
      if (!existsSync(join(final, 'data', 'PG_VERSION'))) {
        if (!existsSync(final)) throw e;
        rmSync(final, { recursive: true, force: true });
        renameSync(building, final);
      }
    }
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
  return join(final, 'data');
}

/** The start time of process `pid` (clock ticks since boot, /proc/<pid>/stat field 22), if it runs. */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count from its end.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** Whether the owner recorded as `text` ("<pid> <start time>") is the same process and still runs. */
export function ownerAlive(text: string): boolean {
  const [pid, start] = text.trim().split(' ');
  return pid !== undefined && start !== undefined && processStartTime(Number(pid)) === start;
}

/**
 * The postmaster of `data` if it still runs: the pid of its postmaster.pid, only when that process's
 * command line names `data` (a pid since reused by another process is not it).
 */
export function postmasterOf(data: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    if (!Number.isSafeInteger(pid) || pid <= 0) return undefined;
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return cmdline.includes(data) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Stops and removes the servers of earlier test processes that are gone (in `root`, default the
 * temporary directory); returns the directories removed.
 */
export function sweepStalePostgres(root = tmpdir()): string[] {
  const removed: string[] = [];
  for (const name of readdirSync(root)) {
    if (!name.startsWith(DIR_PREFIX)) continue;
    const dir = join(root, name);
    let owner: string;
    try {
      owner = readFileSync(join(dir, OWNER_FILE), 'utf8');
    } catch {
      continue; // being created, or not ours
    }
    if (ownerAlive(owner)) continue;
    const pid = postmasterOf(join(dir, 'data'));
    if (pid !== undefined) {
      // SIGQUIT: PostgreSQL's immediate shutdown (the postmaster ends its backends and exits).
      try {
        process.kill(pid, 'SIGQUIT');
      } catch {}
    }
    rmSync(dir, { recursive: true, force: true });
    removed.push(dir);
  }
  return removed;
}

/**
 * The watchdog: waits for end of file on its stdin (a pipe only this process writes to), then stops the
 * server of `data` and removes `dir`. Not waited for by the event loop; `stop()` closes the pipe.
 */
function watchdog(bin: string, dir: string, data: string, as: { uid: number; gid: number } | undefined) {
  const script = 'cat >/dev/null; "$0" -D "$1" -m immediate -w stop >/dev/null 2>&1; rm -rf "$2"';
  const child: ChildProcess = spawn('sh', ['-c', script, join(bin, 'pg_ctl'), data, dir], {
    stdio: ['pipe', 'ignore', 'ignore'],
    detached: true,
    ...(as ?? {}),
  });
  child.unref();
  (child.stdin as unknown as { unref(): void }).unref();
  return child;
}

export async function startPostgres(): Promise<TestPostgres> {
  const bin = postgresBin();
  const as = runAs();
  sweepStalePostgres();
  const dir = await mkdtemp(join(tmpdir(), DIR_PREFIX));
  writeFileSync(join(dir, OWNER_FILE), `${process.pid} ${processStartTime(process.pid)}\n`);
  if (as !== undefined) chownSync(dir, as.uid, as.gid);
  const data = join(dir, 'data');
  const port = 5432; // only names the socket file in `dir` (no TCP listener)
  const guard = watchdog(bin, dir, data, as);
  const guardExited = new Promise((r) => guard.once('exit', r));
  // A copy of the template (cp -a keeps the modes PostgreSQL insists on), run as the server's user.
  await run('cp', ['-a', await postgresTemplate(bin, as), data], as);
  const settings = `-k ${dir} -p ${port} -c listen_addresses= -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  await run(join(bin, 'pg_ctl'), ['-D', data, '-o', settings, '-l', join(dir, 'log'), '-w', 'start'], as);
  const pools = new Map<string, pg.Pool>();
  const poolOf = (dbname: string) => {
    let p = pools.get(dbname);
    if (p === undefined) {
      p = new pg.Pool({ host: dir, port, user: 'torana', database: dbname, max: 2 });
      pools.set(dbname, p);
    }
    return p;
  };
  return {
    dir,
    conninfo: (dbname = 'postgres') => `host=${dir} port=${port} user=torana dbname=${dbname}`,
    async query(sql, params, dbname = 'postgres') {
      return (await poolOf(dbname).query(sql, params)).rows;
    },
    async createDatabase(name) {
      await poolOf('postgres').query(`CREATE DATABASE ${name}`);
    },
    async stop() {
      for (const p of pools.values()) await p.end().catch(() => undefined);
      // The watchdog stops the server and removes the directory once its pipe closes.
      // (Referenced again, so the wait keeps this process's event loop alive.)
      guard.ref();
      guard.stdin?.end();
      await guardExited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
