// Abuse scenarios on query cost (docs/security.md "Reads: bounded cost"), through real sockets against a
// served node holding tens of thousands of accounts, while /health is polled on its own connection:
//
// - the reported filter: `POST /v1/accounts/query` with `{"in":["metadata",[200 objects of 550 keys]]}`
//   (968 KB) and a 100 KB variant are refused 400 invalid_filter at once (values above
//   `query.filter_value_chars_max`); filters just under the cap are answered over the whole table;
// - `GET /v1/accounts?limit=1` costs O(page): its median at N accounts is compared with a small table;
//   then several clients list (plain, sorted, filtered) at once.
// Pass: every answer as documented, and /health p99 under 100 ms during each phase.

import assert from 'node:assert/strict';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Pool } from 'undici';
import { startHealthMonitor } from '../helpers/health-monitor.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';
import { timingBound } from '../helpers/timing-bound.js';
import { figure } from './clients.js';
import { type Answer, loadFromWorker } from './load-worker.js';
import { registerAccounts } from './query-state.js';

export interface QueryCostSize {
  accounts: number;
  /** Concurrent clients in the list and filter phases. */
  clients: number;
  /** Requests per client per phase. */
  rounds: number;
}

const HEALTH_P99_MAX_MS = 100;
/** Idle polling before each phase, to tell the node's own delays from a machine that is busy elsewhere. */
const BASELINE_MS = 1_500;

/**
 * The /health p99 bound of a phase: 100 ms, unless the same node polled while idle just before was already
 * slower (a shared machine whose other processes starve this one; seen at load 9 on 2 cores: idle p99
 * 860 ms): then twice that idle p99. Both figures are printed.
 */
function healthBound(idleP99: number): number {
  return Math.max(HEALTH_P99_MAX_MS, 2 * idleP99);
}

export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

interface Timed {
  status: number;
  code?: string;
  total?: number;
  ms: number;
}

async function timed(pool: Pool, method: 'GET' | 'POST', path: string, body?: unknown): Promise<Timed> {
  const started = performance.now();
  const res = await pool.request({
    method,
    path,
    headers: {
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await res.body.json()) as { code?: string; total?: number };
  return {
    status: res.statusCode,
    ms: performance.now() - started,
    ...(json.code === undefined ? {} : { code: json.code }),
    ...(json.total === undefined ? {} : { total: json.total }),
  };
}

/** `count` objects of `keys` keys each, as in the issue's request. */
function objects(count: number, keys: number): Record<string, number>[] {
  return Array.from({ length: count }, (_, i) =>
    Object.fromEntries(Array.from({ length: keys }, (_, j) => [`k${j}`, i])),
  );
}

/** Runs `phase` while polling /health; fails when its p99 reaches HEALTH_P99_MAX_MS. */
async function underHealthWatch<T>(t: ServedTestNode, name: string, phase: () => Promise<T>): Promise<T> {
  const idle = startHealthMonitor(t.url, 10);
  await new Promise((r) => setTimeout(r, BASELINE_MS));
  const idleP99 = quantile((await idle.stop()).latencies, 0.99);
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const monitor = startHealthMonitor(t.url, 10);
  // The monitor is stopped even when the phase fails, or its polling loop would keep the test alive.
  const outcome = await phase().then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  const { latencies, failures } = await monitor.stop();
  loop.disable();
  if (!outcome.ok) throw outcome.error;
  const out = outcome.value;
  const p99 = quantile(latencies, 0.99);
  figure(`${name}: /health`, {
    polls: latencies.length,
    p50_ms: quantile(latencies, 0.5),
    p99_ms: p99,
    max_ms: Math.max(...latencies),
    event_loop_delay_max_ms: loop.max / 1e6,
    idle_p99_ms: idleP99,
  });
  assert.deepEqual(failures, []);
  const bound = healthBound(idleP99);
  // Printed by `npm test`, asserted by the reliability suite (a loaded machine says more about its
  // neighbours than about the node).
  timingBound({ what: `${name}: /health p99`, value: p99, max: bound });
  return out;
}

async function filterPhase(t: ServedTestNode, size: QueryCostSize): Promise<void> {
  // The issue's shape at about its size (200 objects, ~960 KB: under the 1 MiB JSON body cap) and ~100 KB.
  const issue = JSON.stringify({ filter: { in: ['metadata', objects(200, 470)] }, limit: 1 });
  const variant = JSON.stringify({ filter: { in: ['metadata', objects(20, 470)] }, limit: 1 });
  // Just under the default cap (64 Ki characters of canonical values: 61.5 Ki): answered over the whole table.
  const allowed = JSON.stringify({ filter: { in: ['metadata', objects(200, 30)] }, limit: 1 });
  const n = size.clients * size.rounds;
  const post = (body: string) => ({ method: 'POST' as const, path: '/v1/accounts/query', body });
  await underHealthWatch(t, 'filter attack', async () => {
    const refused = await loadFromWorker(
      t.url,
      Array.from({ length: n }, (_, i) => post(i % 2 === 0 ? issue : variant)),
      size.clients,
    );
    // The issue's body is above `gateway.list_query_body_bytes_max` (413 before it is parsed); the
    // 100 KB variant is parsed and its values are above `query.filter_value_chars_max` (400).
    for (const [i, r] of refused.entries()) {
      const want = i % 2 === 0 ? [413, 'body_too_large'] : [400, 'invalid_filter'];
      assert.deepEqual([r.status, r.code], want);
    }
    const answered = await loadFromWorker(
      t.url,
      Array.from({ length: n }, () => post(allowed)),
      size.clients,
    );
    for (const r of answered) assert.deepEqual([r.status, r.total], [200, 0]);
    const ms = (rs: Answer[]) => rs.map((r) => r.ms);
    figure('filter attack', {
      accounts: size.accounts,
      issue_body_kb: Math.round(issue.length / 1024),
      variant_body_kb: Math.round(variant.length / 1024),
      refused: refused.length,
      refused_p50_ms: quantile(ms(refused), 0.5),
      refused_max_ms: Math.max(...ms(refused)),
      under_cap_body_kb: Math.round(allowed.length / 1024),
      under_cap_answered: answered.length,
      under_cap_p50_ms: quantile(ms(answered), 0.5),
      under_cap_max_ms: Math.max(...ms(answered)),
    });
  });
}

async function pageMedian(pool: Pool, path: string, n: number): Promise<number> {
  for (let i = 0; i < 10; i++) await timed(pool, 'GET', path); // warm-up: JIT and connections
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = await timed(pool, 'GET', path);
    assert.equal(r.status, 200);
    ms.push(r.ms);
  }
  return quantile(ms, 0.5);
}

async function listPhase(t: ServedTestNode, pool: Pool, size: QueryCostSize, smallMs: number) {
  const bigMs = await pageMedian(pool, '/v1/accounts?limit=1', 50);
  const mix = [
    '/v1/accounts?limit=1',
    '/v1/accounts?limit=1&sort=id:desc',
    `/v1/accounts?limit=1&filter=${encodeURIComponent('{"eq":["domain","nowhere"]}')}`,
  ];
  const requests = Array.from({ length: size.clients * size.rounds }, (_, i) => ({
    method: 'GET' as const,
    path: mix[i % mix.length]!,
  }));
  const answers = await underHealthWatch(t, 'list pages', () =>
    loadFromWorker(t.url, requests, size.clients),
  );
  for (const a of answers) assert.equal(a.status, 200);
  const of = (k: number) => answers.filter((_, i) => i % mix.length === k).map((a) => a.ms);
  figure('list pages', {
    accounts: size.accounts,
    limit1_small_table_p50_ms: smallMs,
    limit1_p50_ms: bigMs,
    ratio: bigMs / smallMs,
    concurrent_clients: size.clients,
    plain_p50_ms: quantile(of(0), 0.5),
    sorted_p50_ms: quantile(of(1), 0.5),
    filtered_p50_ms: quantile(of(2), 0.5),
  });
  // O(page): the page at N accounts costs about what it costs on a handful (allow for noise, not for N).
  // Printed by `npm test`, asserted by the reliability suite.
  timingBound({
    what: `GET /v1/accounts?limit=1 p50 at ${size.accounts} accounts (${smallMs.toFixed(1)} ms on a handful)`,
    value: bigMs,
    max: Math.round(Math.max(10, smallMs * 5)),
  });
}

/** Finding 2 and 3 together (one big state serves both). */
export async function queryCostAttacks(size: QueryCostSize): Promise<void> {
  const t = await startServedNode();
  const pool = new Pool(t.url, { connections: size.clients });
  try {
    const smallMs = await pageMedian(pool, '/v1/accounts?limit=1', 50);
    const started = performance.now();
    await registerAccounts(t, 'crowd', size.accounts);
    figure('query cost setup', { accounts: size.accounts, build_ms: performance.now() - started });
    await filterPhase(t, size);
    await listPhase(t, pool, size, smallMs);
  } finally {
    await pool.close();
    await t.stopAll();
  }
}
