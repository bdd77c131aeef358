// The measurement behind the `state_1m_*` figures: two node directories, one with
// BASE accounts and one with LARGE accounts (1,000 and 10,000,000 in the full run; 1,000,000 with --quick), each account
// holding one asset, built by a bulk genesis import of an NDJSON file (scale-build-child.ts; the build's
// time, disk size and peak RSS are printed). Each is then opened by
// a node in a process of its own (scale-server.ts: restart-to-ready), both serve at once, and the same
// load runs against each in alternating rounds (so noise on the shared machine hits both alike):
// `GET /v1/accounts/{id}` of uniformly random accounts, then a signed `POST /query` built by the SDK.
// Then each node's RSS after a full GC; last, the commit load (scale-commit.ts: rounds of transfers
// between random accounts, run inside each node's process, alternating), after the RSS so that the
// rows it writes do not change the memory figure.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import type { QueryRequest } from '../../src/model/queries.js';
import { ToranaClient } from '../../src/sdk/client.js';
import { runJsonChild } from './child.js';
import { HTTP_NODE_CONFIG } from './http-node.js';
import type { CommitRoundResult } from './scale-commit.js';
import { BALANCE_SPREAD, SCALE_DEFINITION, scaleAccountId } from './scale-state.js';
import { startServerProcess } from './server-process.js';
import { percentile } from './timing.js';
import { adminOf } from './transfers.js';

export const SCALE_BASE_ACCOUNTS = 1_000;
export const SCALE_LARGE_ACCOUNTS = 10_000_000;
export const SCALE_LARGE_ACCOUNTS_QUICK = 1_000_000;
/** The goals of the `state_1m_*` figures are set for a state of at least this many accounts. */
export const SCALE_GOAL_ACCOUNTS = 1_000_000;
/**
 * `query.work_units_max` of both nodes: the default (4,000,000, about 100 ms of filtering) refuses a
 * filtered scan of 1,000,000 holders with query_budget_exceeded, so the figure raises it to see the cost.
 */
export const SCALE_QUERY_WORK_UNITS = 400_000_000;
/** The query keeps holders whose balance is at least this (about half of them, scale-state.ts). */
const QUERY_MIN_BALANCE = BALANCE_SPREAD / 2;
const QUERY_LIMIT = 10;
/** Concurrent requests of the point-read load (closed loop). */
const READ_CONCURRENCY = 4;
/** Random account ids drawn ahead of the read load (uniform over the whole set, cycled). */
const READ_IDS = 20_000;
/** A node that has not opened its state within this is a failure, not a hang. */
const OPEN_TIMEOUT_MS = 15 * 60_000;

export interface Latencies {
  samples: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

/** The commit load's rounds on one node (`state_commit_tx_per_s`). */
export interface CommitRate {
  committed: number;
  rejected: number;
  seconds: number;
  txPerS: number;
  /** CPU (every thread of the node's process) per committed transfer over the rounds. */
  cpuUsPerTx: number;
  majorFaults: number;
  minorFaults: number;
}

export interface ScaleSide {
  accounts: number;
  buildS: number;
  buildTransactions: number;
  importS: number;
  importCpuMsPerAccount: number;
  diskMiB: number;
  buildPeakRssMiB: number;
  height: number;
  startS: number;
  readyS: number;
  rssMiB: number;
  heapMiB: number;
  rssAnonMiB: number;
  rssFileMiB: number;
  rssBeforeLoadMiB: number;
  read: Latencies;
  query: Latencies;
  commit: CommitRate;
}

export interface ScaleResult {
  base: ScaleSide;
  large: ScaleSide;
  largeGoalScale: boolean;
}

export interface BuildReport {
  /** Accounts of the scale domain (the state also holds the genesis accounts). */
  scale_accounts: number;
  accounts: number;
  transactions: number;
  height: number;
  build_ms: number;
  /** Writing the NDJSON file, importing it, and the first start (block 1) (scale-build-child.ts). */
  file_ms: number;
  import_ms: number;
  /** CPU of the import alone (user + system), per scale account. */
  import_cpu_ms_per_account: number;
  first_start_ms: number;
  file_bytes: number;
  /** The node's data directory after the build (allocated bytes). */
  disk_bytes: number;
  /** The build process's peak resident set. */
  peak_rss_mib: number;
}

interface Mem {
  rss: number;
  heap: number;
  anon: number;
  file: number;
}

const MIB = 2 ** 20;
const summary = (ms: number[], errors: number): Latencies => ({
  samples: ms.length,
  p50Ms: percentile(ms, 50),
  p99Ms: percentile(ms, 99),
  errors,
});

/** A built directory opened by a node in its own process. */
class ScaleNode {
  private memWaiters: ((m: Mem | undefined) => void)[] = [];
  private commitWaiters: ((r: CommitRoundResult | undefined) => void)[] = [];
  private exited: string | undefined;
  private constructor(
    readonly dir: string,
    readonly build: BuildReport,
    readonly url: string,
    readonly ready: { startMs: number; readyMs: number },
    private readonly stopServer: () => Promise<void>,
    private readonly kill: (signal: NodeJS.Signals) => void,
  ) {}

  static async build(
    accounts: number,
    log: (m: string) => void,
  ): Promise<{ dir: string; build: BuildReport }> {
    const dir = await mkdtemp(join(tmpdir(), 'torana-bench-scale-'));
    log(`building a state of ${accounts} accounts with one asset each`);
    const { result } = await runJsonChild<BuildReport>(new URL('./scale-build-child.ts', import.meta.url), [
      dir,
      String(accounts),
    ]).catch(async (e: unknown) => {
      await rm(dir, { recursive: true, force: true });
      throw e;
    });
    log(
      `  built in ${(result.build_ms / 1000).toFixed(1)} s (file ${(result.file_ms / 1000).toFixed(1)} s, ` +
        `import ${(result.import_ms / 1000).toFixed(1)} s, ${result.import_cpu_ms_per_account.toFixed(3)} ms CPU per account, first start ${(result.first_start_ms / 1000).toFixed(1)} s); ` +
        `file ${(result.file_bytes / MIB).toFixed(0)} MiB, data ${(result.disk_bytes / MIB).toFixed(0)} MiB on disk, ` +
        `build peak RSS ${result.peak_rss_mib.toFixed(0)} MiB`,
    );
    return { dir, build: result };
  }

  static async open(dir: string, build: BuildReport, commitPerRound: number): Promise<ScaleNode> {
    let ready = { startMs: Number.NaN, readyMs: Number.NaN };
    let node: ScaleNode | undefined;
    const onLine = (line: string) => {
      const [kind, a, b, c, d, e, f] = line.split(' ');
      if (kind === 'READY') ready = { startMs: Number(a), readyMs: Number(b) };
      if (kind === 'MEM' && node !== undefined) {
        const w = node.memWaiters;
        node.memWaiters = [];
        for (const resolve of w)
          resolve({ rss: Number(a), heap: Number(b), anon: Number(c), file: Number(d) });
      }
      if (kind === 'COMMIT' && node !== undefined) {
        const w = node.commitWaiters;
        node.commitWaiters = [];
        const r = {
          committed: Number(a),
          rejected: Number(b),
          ms: Number(c),
          cpuUs: Number(d),
          majorFaults: Number(e),
          minorFaults: Number(f),
        };
        for (const resolve of w) resolve(r);
      }
    };
    // The directory was built with fsync off; the serving node has it on, as `npm start` would.
    const config = {
      ...HTTP_NODE_CONFIG,
      'storage.fsync': true,
      'query.work_units_max': SCALE_QUERY_WORK_UNITS,
      ...scaleConfigOverrides(),
    };
    // BENCH_NODE_FLAGS: extra Node flags for the node process (e.g. --cpu-prof), as for the HTTP node.
    const flags = ['--expose-gc', ...(process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? [])];
    const script = new URL('./scale-server.ts', import.meta.url);
    const server = await startServerProcess(
      script,
      [dir, JSON.stringify(config), String(build.scale_accounts), String(commitPerRound)],
      onLine,
      flags,
      OPEN_TIMEOUT_MS,
    );
    node = new ScaleNode(dir, build, server.url, ready, server.stop, (s) => server.child.kill(s));
    const opened = node;
    server.child.once('exit', (code, signal) => {
      opened.exited = `the node process exited (${code ?? signal})`;
      for (const w of opened.memWaiters.splice(0)) w(undefined);
      for (const w of opened.commitWaiters.splice(0)) w(undefined);
    });
    return node;
  }

  memory(): Promise<Mem> {
    return new Promise((resolve, reject) => {
      if (this.exited !== undefined) return reject(new Error(this.exited));
      this.memWaiters.push((m) => (m === undefined ? reject(new Error(this.exited)) : resolve(m)));
      this.kill('SIGUSR2');
    });
  }

  /** One round of the commit load in the node's process (scale-commit.ts). */
  commitRound(): Promise<CommitRoundResult> {
    return new Promise((resolve, reject) => {
      if (this.exited !== undefined) return reject(new Error(this.exited));
      this.commitWaiters.push((r) => (r === undefined ? reject(new Error(this.exited)) : resolve(r)));
      this.kill('SIGHUP');
    });
  }

  stop(): Promise<void> {
    return this.stopServer();
  }
}

/** `ms` of closed-loop `GET /v1/accounts/{id}` over `ids` (cycled), `READ_CONCURRENCY` at a time. */
async function readRound(pool: Pool, ids: readonly string[], ms: number, out: number[]): Promise<number> {
  let next = Math.floor(Math.random() * ids.length);
  let errors = 0;
  const until = performance.now() + ms;
  const worker = async () => {
    while (performance.now() < until) {
      const path = `/v1/accounts/${encodeURIComponent(ids[next++ % ids.length]!)}`;
      const t0 = performance.now();
      const res = await pool.request({ method: 'GET', path });
      await res.body.dump();
      if (res.statusCode === 200) out.push(performance.now() - t0);
      else errors++;
    }
  };
  await Promise.all(Array.from({ length: READ_CONCURRENCY }, worker));
  return errors;
}

/** The signed query of the figure: holders of the definition with balance ≥ half the spread, richest 10. */
export const SCALE_QUERY: QueryRequest = {
  kind: 'Start',
  query: { kind: 'FindHoldersOfDefinition', definition: SCALE_DEFINITION },
  params: {
    filter: { gte: ['value', String(QUERY_MIN_BALANCE)] },
    sort: 'value:desc',
    limit: QUERY_LIMIT,
    offset: 0,
  },
};

/** Checks one answer of the query: 10 holders, balances descending, none under the filter's bound. */
function checkAnswer(r: Awaited<ReturnType<ToranaClient['query']>>): boolean {
  if (r.kind !== 'Iterable' || r.batch.length !== QUERY_LIMIT) return false;
  const values = r.batch.map((o) => (o.kind === 'Asset' ? Number(o.value.value.mantissa) : -1));
  return values.every((v, i) => v >= QUERY_MIN_BALANCE && (i === 0 || v <= values[i - 1]!));
}

/** `ms` of the signed query, one at a time (at least one). */
async function queryRound(client: ToranaClient, ms: number, out: number[]): Promise<number> {
  let errors = 0;
  const until = performance.now() + ms;
  do {
    const t0 = performance.now();
    const ok = await client.query(SCALE_QUERY).then(checkAnswer, () => false);
    if (ok) out.push(performance.now() - t0);
    else errors++;
  } while (performance.now() < until);
  return errors;
}

export interface ScaleOptions {
  quick: boolean;
  log(m: string): void;
}

/** Seconds per round and rounds of each load (after one warm-up round that is not counted). */
function shape(quick: boolean) {
  return quick
    ? { rounds: 2, readS: 2, queryS: 3, commitTxs: 4_000 }
    : { rounds: 4, readS: 4, queryS: 8, commitTxs: 16_000 };
}

async function side(
  node: ScaleNode,
  read: number[],
  readErrors: number,
  query: number[],
  queryErrors: number,
  before: Mem,
): Promise<Omit<ScaleSide, 'commit'>> {
  const m = await node.memory();
  return {
    accounts: node.build.scale_accounts,
    buildS: node.build.build_ms / 1000,
    buildTransactions: node.build.transactions,
    importS: node.build.import_ms / 1000,
    importCpuMsPerAccount: node.build.import_cpu_ms_per_account,
    diskMiB: node.build.disk_bytes / MIB,
    buildPeakRssMiB: node.build.peak_rss_mib,
    height: node.build.height,
    startS: node.ready.startMs / 1000,
    readyS: node.ready.readyMs / 1000,
    rssMiB: m.rss / MIB,
    heapMiB: m.heap / MIB,
    rssAnonMiB: m.anon / MIB,
    rssFileMiB: m.file / MIB,
    rssBeforeLoadMiB: before.rss / MIB,
    read: summary(read, readErrors),
    query: summary(query, queryErrors),
  };
}

/** Random account ids of a state of `accounts` accounts, uniform over the whole set. */
function randomIds(accounts: number): string[] {
  return Array.from({ length: READ_IDS }, () => scaleAccountId(Math.floor(Math.random() * accounts)));
}

async function measure(nodes: readonly [ScaleNode, ScaleNode], opts: ScaleOptions): Promise<ScaleResult> {
  const s = shape(opts.quick);
  const before = await Promise.all(nodes.map((n) => n.memory()));
  const pools = nodes.map((n) => new Pool(n.url, { connections: READ_CONCURRENCY }));
  const clients = await Promise.all(
    nodes.map(async (n) => {
      const admin = await adminOf(n.dir);
      return new ToranaClient({ url: n.url, account: admin.id, signer: admin.key });
    }),
  );
  const ids = nodes.map((n) => randomIds(n.build.scale_accounts));
  const reads: number[][] = [[], []];
  const queries: number[][] = [[], []];
  const errors = { read: [0, 0], query: [0, 0] };
  try {
    opts.log(`point reads: ${s.rounds} rounds of ${s.readS} s per node, alternating, after a warm-up`);
    for (let r = -1; r < s.rounds; r++) {
      for (const i of r % 2 === 0 ? [0, 1] : [1, 0]) {
        const out = r < 0 ? [] : reads[i]!;
        const e = await readRound(pools[i]!, ids[i]!, r < 0 ? 1000 : s.readS * 1000, out);
        if (r >= 0) errors.read[i]! += e;
      }
    }
    opts.log(`signed queries: ${s.rounds} rounds of ${s.queryS} s per node, alternating, after a warm-up`);
    for (let r = -1; r < s.rounds; r++) {
      for (const i of r % 2 === 0 ? [0, 1] : [1, 0]) {
        const out = r < 0 ? [] : queries[i]!;
        const e = await queryRound(clients[i]!, r < 0 ? 0 : s.queryS * 1000, out);
        if (r >= 0) errors.query[i]! += e;
      }
    }
  } finally {
    await Promise.all(pools.map((p) => p.close()));
  }
  const [base, large] = await Promise.all(
    nodes.map((n, i) => side(n, reads[i]!, errors.read[i]!, queries[i]!, errors.query[i]!, before[i]!)),
  );
  opts.log(`commits: ${s.rounds} rounds of ${s.commitTxs} transfers per node, alternating, after a warm-up`);
  const commits = [0, 1].map((): CommitRate & { cpuUs: number } => ({
    committed: 0,
    rejected: 0,
    seconds: 0,
    txPerS: 0,
    cpuUs: 0,
    cpuUsPerTx: 0,
    majorFaults: 0,
    minorFaults: 0,
  }));
  for (let r = -1; r < s.rounds; r++) {
    for (const i of r % 2 === 0 ? [0, 1] : [1, 0]) {
      const c = await nodes[i]!.commitRound();
      if (r < 0) continue;
      const sum = commits[i]!;
      sum.committed += c.committed;
      sum.rejected += c.rejected;
      sum.seconds += c.ms / 1000;
      sum.txPerS = sum.committed / sum.seconds;
      sum.cpuUs += c.cpuUs;
      sum.cpuUsPerTx = sum.cpuUs / sum.committed;
      sum.majorFaults += c.majorFaults;
      sum.minorFaults += c.minorFaults;
    }
  }
  const rate = ({ cpuUs: _, ...c }: CommitRate & { cpuUs: number }): CommitRate => c;
  return {
    base: { ...base!, commit: rate(commits[0]!) },
    large: { ...large!, commit: rate(commits[1]!) },
    largeGoalScale: nodes[1].build.scale_accounts >= SCALE_GOAL_ACCOUNTS,
  };
}

/**
 * Config overrides for both scale nodes from TORANA_BENCH_SCALE_CONFIG (a JSON object of config keys, e.g.
 * `{"storage.map_chunks":true}`), on top of the figure's own settings; none when unset. The figures' notes
 * name them.
 */
export function scaleConfigOverrides(): Record<string, unknown> {
  const text = process.env.TORANA_BENCH_SCALE_CONFIG;
  if (text === undefined || text === '') return {};
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new Error(`TORANA_BENCH_SCALE_CONFIG is not a JSON object: ${text}`);
  return parsed as Record<string, unknown>;
}

/**
 * The large state's accounts: 10,000,000 (1,000,000 with --quick), or TORANA_BENCH_SCALE_ACCOUNTS (the
 * figures say so when it is below the goals' scale).
 */
function scaleLargeAccounts(quick: boolean): number {
  const asked = Number(process.env.TORANA_BENCH_SCALE_ACCOUNTS);
  if (Number.isSafeInteger(asked) && asked > SCALE_BASE_ACCOUNTS) return asked;
  return quick ? SCALE_LARGE_ACCOUNTS_QUICK : SCALE_LARGE_ACCOUNTS;
}

/** Builds both states, opens each in a node of its own (one after the other), measures, cleans up. */
export async function measureScale(opts: ScaleOptions): Promise<ScaleResult> {
  const large = scaleLargeAccounts(opts.quick);
  const dirs: string[] = [];
  try {
    const built = [];
    for (const n of [SCALE_BASE_ACCOUNTS, large]) {
      const b = await ScaleNode.build(n, opts.log);
      dirs.push(b.dir);
      built.push(b);
    }
    return await measureBuilt([built[0]!, built[1]!], opts);
  } finally {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  }
}

/** Opens two built directories (base, large) in node processes of their own, one after the other, and measures. */
export async function measureBuilt(
  built: readonly [{ dir: string; build: BuildReport }, { dir: string; build: BuildReport }],
  opts: ScaleOptions,
): Promise<ScaleResult> {
  const nodes: ScaleNode[] = [];
  try {
    for (const b of built) {
      opts.log(`opening the state of ${b.build.scale_accounts} accounts in a node process of its own`);
      const node = await ScaleNode.open(b.dir, b.build, shape(opts.quick).commitTxs);
      nodes.push(node);
      opts.log(`  ready after ${(node.ready.readyMs / 1000).toFixed(2)} s`);
    }
    return await measure([nodes[0]!, nodes[1]!], opts);
  } finally {
    await Promise.all(nodes.map((n) => n.stop()));
  }
}

/** What every `state_1m_*` figure says about how its states were made and served. */
export function scaleNote(r: ScaleResult): string {
  const b = r.base;
  const l = r.large;
  const reduced = r.largeGoalScale
    ? ''
    : `; reduced scale: ${l.accounts} accounts instead of 1,000,000, goal not assessed`;
  return (
    `states of ${b.accounts} and ${l.accounts} accounts (one asset each) built by a bulk genesis import of an NDJSON ` +
    `file (torana genesis import) then block 1, storage.fsync=false (${l.buildS.toFixed(1)} s for the larger: ` +
    `import ${l.importS.toFixed(1)} s at ${l.importCpuMsPerAccount.toFixed(3)} ms CPU per account, ${l.diskMiB.toFixed(0)} MiB on disk, build peak RSS ${l.buildPeakRssMiB.toFixed(0)} MiB), ` +
    `each reopened by a node process of its own (fsync on, per-IP rate limit lifted, logging off, ` +
    `query.work_units_max ${SCALE_QUERY_WORK_UNITS}${overridesNote()}); loads alternate between the two nodes${reduced}`
  );
}

/** The TORANA_BENCH_SCALE_CONFIG overrides as the figures' notes name them. */
function overridesNote(): string {
  const o = Object.entries(scaleConfigOverrides());
  return o.length === 0 ? '' : `, overrides ${o.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(' ')}`;
}

/** The large side's figure over the base side's, with the sides' key numbers for `extra`. */
export function scaleExtra(r: ScaleResult): Record<string, number> {
  const e: Record<string, number> = {};
  for (const [name, s] of [
    ['base', r.base],
    ['large', r.large],
  ] as const) {
    e[`${name}_accounts`] = s.accounts;
    e[`${name}_rss_mib`] = Math.round(s.rssMiB);
    e[`${name}_ready_s`] = Number(s.readyS.toFixed(3));
    e[`${name}_read_p99_ms`] = Number(s.read.p99Ms.toFixed(3));
    e[`${name}_query_p99_ms`] = Number(s.query.p99Ms.toFixed(1));
    e[`${name}_build_s`] = Number(s.buildS.toFixed(1));
    e[`${name}_import_s`] = Number(s.importS.toFixed(1));
    e[`${name}_import_cpu_ms_per_account`] = Number(s.importCpuMsPerAccount.toFixed(4));
    e[`${name}_disk_mib`] = Math.round(s.diskMiB);
    e[`${name}_build_peak_rss_mib`] = Math.round(s.buildPeakRssMiB);
  }
  return e;
}

/** The p50, sample and error counts of one load (`read` or `query`) on both sides, for `extra`. */
export function latencyExtra(r: ScaleResult, load: 'read' | 'query', digits: number): Record<string, number> {
  return {
    [`large_${load}_p50_ms`]: Number(r.large[load].p50Ms.toFixed(digits)),
    [`base_${load}_p50_ms`]: Number(r.base[load].p50Ms.toFixed(digits)),
    [`large_${load}_samples`]: r.large[load].samples,
    [`base_${load}_samples`]: r.base[load].samples,
    [`large_${load}_errors`]: r.large[load].errors,
    [`base_${load}_errors`]: r.base[load].errors,
  };
}
