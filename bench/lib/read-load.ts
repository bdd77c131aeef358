// The read load of the read figures: autocannon over keep-alive
// connections, each cycling through `/status`, `/v1/domains?limit=5` and `/v1/accounts/{id}` on a node
// with the bench accounts registered (so the account exists), and the same connections on `GET /hello`
// of two bare servers: Fastify (bare-server.ts) and `node:http` (bare-node-http.ts). The three run in
// processes of their own, all started before the load; the loads alternate in short rounds (as the
// micro figures do, timing.ts) and each contender's median round counts, so a burst of other work on
// the shared machine hurts all three alike instead of whichever happened to run at that moment.

import autocannon from 'autocannon';
import { HTTP_CONNECTIONS } from './bare-baselines.js';
import { startHttpNode } from './http-node.js';
import { startServerProcess } from './server-process.js';
import { median } from './timing.js';

/** Rounds per contender; every round loads each contender for the same time. */
const ROUNDS = 5;
/** Load before the rounds: the node runs far more code than the bare servers and needs longer to warm up. */
const WARM_UP_S = 3;

export interface ReadRate {
  /** 2xx answers per second, median round. */
  rps: number;
  /** Over every round. */
  non2xx: number;
  errors: number;
  /** Median round's p99 latency, ms. */
  p99: number;
  /** Every round's rate, in order. */
  rounds: number[];
}

export interface ReadRates {
  node: ReadRate;
  bareFastify: ReadRate;
  bareNodeHttp: ReadRate;
  roundSeconds: number;
}

type Requests = { method: string; path: string }[];

async function load(url: string, requests: Requests, seconds: number) {
  const r = await autocannon({ url, connections: HTTP_CONNECTIONS, requests, duration: seconds });
  return { rps: r['2xx'] / r.duration, non2xx: r.non2xx, errors: r.errors + r.timeouts, p99: r.latency.p99 };
}

function summary(rounds: Awaited<ReturnType<typeof load>>[]): ReadRate {
  const rates = rounds.map((r) => r.rps);
  return {
    rps: median(rates),
    non2xx: rounds.reduce((n, r) => n + r.non2xx, 0),
    errors: rounds.reduce((n, r) => n + r.errors, 0),
    p99: median(rounds.map((r) => r.p99)),
    rounds: rates.map(Math.round),
  };
}

export async function readRates(seconds: number, log: (m: string) => void): Promise<ReadRates> {
  const roundSeconds = Math.max(1, Math.round(seconds / ROUNDS));
  const node = await startHttpNode({ announce: false });
  const fastify = await startServerProcess(new URL('./bare-server.ts', import.meta.url));
  const nodeHttp = await startServerProcess(new URL('./bare-node-http.ts', import.meta.url));
  try {
    const account = encodeURIComponent(node.accounts[0]!.id);
    const reads = ['/status', '/v1/domains?limit=5', `/v1/accounts/${account}`];
    const hello: Requests = [{ method: 'GET', path: '/hello' }];
    const contenders: [string, Requests][] = [
      [node.url, reads.map((path) => ({ method: 'GET', path }))],
      [fastify.url, hello],
      [nodeHttp.url, hello],
    ];
    for (const [url, requests] of contenders) await load(url, requests, WARM_UP_S);
    log(`${ROUNDS} rounds of ${roundSeconds} s each: node reads, bare Fastify, bare node:http`);
    const results: Awaited<ReturnType<typeof load>>[][] = [[], [], []];
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, [url, requests]] of contenders.entries())
        results[i]!.push(await load(url, requests, roundSeconds));
    }
    return {
      node: summary(results[0]!),
      bareFastify: summary(results[1]!),
      bareNodeHttp: summary(results[2]!),
      roundSeconds,
    };
  } finally {
    await Promise.all([node.stop(), fastify.stop(), nodeHttp.stop()]);
  }
}
