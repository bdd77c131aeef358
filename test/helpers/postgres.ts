// Test helper: a PostgreSQL server of its own in a temporary directory (Debian's `postgresql` package;
// CI installs it), listening only on a unix socket there, stopped and removed by `stop()`. initdb and
// postgres refuse to run as root: as root they run as the `postgres` user (or `nobody`), which owns the
// directory.

import { execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, readdirSync } from 'node:fs';
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

export async function startPostgres(): Promise<TestPostgres> {
  const bin = postgresBin();
  const as = runAs();
  const dir = await mkdtemp(join(tmpdir(), 'torana-pg-'));
  if (as !== undefined) chownSync(dir, as.uid, as.gid);
  const data = join(dir, 'data');
  const port = 5432; // only names the socket file in `dir` (no TCP listener)
  await run(join(bin, 'initdb'), ['-D', data, '-U', 'torana', '--auth=trust', '-E', 'UTF8', '--no-sync'], as);
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
      await run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop'], as).catch(
        () => undefined,
      );
      await rm(dir, { recursive: true, force: true });
    },
  };
}
