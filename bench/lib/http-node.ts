// A node serving HTTP in its own process (node-server.ts), with the bench accounts funded, and the
// commit counts it reports. Configuration: `npm start`'s defaults (fsync on, blocks of up to 512,
// one verification worker) except three settings a one-machine load test needs, all reported with
// the figures: the per-IP rate limit is lifted (every request comes from 127.0.0.1), and request
// logging is off (`log.level = "warn"`), as it is for the bare Fastify baseline.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { initNodeDir } from '../../src/node/init.js';
import { loadNodeConfig } from '../../src/node/load-config.js';
import type { TestAccount } from '../../test/helpers/tx.js';
import { BENCH_CHAIN_ID } from './chain.js';
import { startServerProcess } from './server-process.js';
import { benchAccounts } from './transfers.js';

export const HTTP_NODE_CONFIG: Readonly<Record<string, unknown>> = {
  'gateway.port': 0,
  'node.chain_id': BENCH_CHAIN_ID,
  'log.level': 'warn',
  'gateway.rate_per_ip_per_s': 1_000_000_000,
  'gateway.rate_burst': 1_000_000_000,
};

export const HTTP_NODE_NOTE =
  'node in its own process over HTTP keep-alive (defaults: fsync on, blocks <= 512, verify.threads 1; ' +
  'per-IP rate limit lifted and request logging off for a one-machine load test)';

export interface Count {
  committed: number;
  rejected: number;
  atMs: number;
}

export interface HttpNode {
  url: string;
  /** The node directory (its genesis.json, for the indexer figures). */
  dir: string;
  accounts: TestAccount[];
  /** `block.time_ms` of the node's configuration. */
  blockTimeMs: number;
  /** The newest COUNT line. */
  latest(): Count;
  /** Resolves with the first COUNT line reported after now. */
  nextCount(): Promise<Count>;
  /** Commit time (epoch ms) by transaction hash, when started with announce. */
  commits: Map<string, number>;
  /** Commit time (epoch ms) by block height, when started with blocks. */
  blockTimes: Map<number, number>;
  /** The node process's memory after a full GC. */
  memory(): Promise<{ rss: number; heapUsed: number }>;
  stop(): Promise<void>;
}

export interface HttpNodeOptions {
  announce?: boolean;
  blocks?: boolean;
  /** Serve with the node directory (the per-node stores, e.g. webhooks), as `torana start` does. */
  withDir?: boolean;
  /** More configuration on top of HTTP_NODE_CONFIG (e.g. stream limits for the fan-out figure). */
  config?: Record<string, unknown>;
}

export async function startHttpNode(opts: HttpNodeOptions): Promise<HttpNode> {
  const dir = await mkdtemp(join(tmpdir(), 'torana-bench-http-'));
  await initNodeDir({ dir, overrides: { ...HTTP_NODE_CONFIG, ...opts.config } });
  const config = await loadNodeConfig({ dir });
  const accounts = benchAccounts();
  const accountsFile = join(dir, 'bench-accounts.json');
  await writeFile(accountsFile, JSON.stringify(accounts.map((a) => a.id)));
  let latest: Count = { committed: 0, rejected: 0, atMs: 0 };
  let waiters: ((c: Count) => void)[] = [];
  const commits = new Map<string, number>();
  const blockTimes = new Map<number, number>();
  let memoryWaiters: ((m: { rss: number; heapUsed: number }) => void)[] = [];
  const onLine = (line: string) => {
    const [kind, a, b, c] = line.split(' ');
    if (kind === 'C' && a !== undefined && b !== undefined) commits.set(a, Number(b));
    if (kind === 'B' && a !== undefined && b !== undefined) blockTimes.set(Number(a), Number(b));
    if (kind === 'MEM') {
      const w = memoryWaiters;
      memoryWaiters = [];
      for (const resolve of w) resolve({ rss: Number(a), heapUsed: Number(b) });
    }
    if (kind !== 'COUNT' || c === undefined) return;
    latest = { committed: Number(a), rejected: Number(b), atMs: Number(c) };
    const w = waiters;
    waiters = [];
    for (const resolve of w) resolve(latest);
  };
  const args = [
    dir,
    accountsFile,
    ...(opts.announce ? ['--announce'] : []),
    ...(opts.blocks ? ['--blocks'] : []),
    ...(opts.withDir ? ['--with-dir'] : []),
  ];
  const script = new URL('./node-server.ts', import.meta.url);
  // BENCH_NODE_FLAGS: extra Node flags for the node process, e.g. "--cpu-prof --cpu-prof-dir=/tmp/p"
  // to profile the node under a figure's load.
  const flags = ['--expose-gc', ...(process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? [])];
  const server = await startServerProcess(script, args, onLine, flags).catch(async (e: unknown) => {
    await rm(dir, { recursive: true, force: true });
    throw e;
  });
  return {
    url: server.url,
    dir,
    accounts,
    blockTimeMs: config.block.timeMs,
    latest: () => latest,
    nextCount: () => new Promise((resolve) => waiters.push(resolve)),
    commits,
    blockTimes,
    memory: () =>
      new Promise((resolve) => {
        memoryWaiters.push(resolve);
        server.child.kill('SIGUSR2');
      }),
    async stop() {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
