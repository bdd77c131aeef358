// HTTP load against a node in its own process: the peak (autocannon, keep-alive connections, as fast
// as the node answers) and a paced run (undici, a fixed rate) that measures submit-to-commit latency.
// Commits are counted by the node on its event bus (node-server.ts), on commit events.

import autocannon from 'autocannon';
import { Pool } from 'undici';
import { HTTP_CONNECTIONS } from './bare-baselines.js';
import { BENCH_CHAIN_ID } from './chain.js';
import type { HttpNode } from './http-node.js';
import { sleep } from './timing.js';
import { presignedSigned } from './transfers.js';

export const SUBMIT_HEADERS = { 'content-type': 'application/x-codec' };
/** Granularity of the paced sender. */
const PACE_TICK_MS = 10;
/** After a paced run, how long stragglers may take to commit before the rest count as lost. */
const DRAIN_MS = 5_000;
/** How long the warm-up's transactions may take to become final before the figure fails. */
const WARM_UP_DRAIN_MS = 60_000;
/** Seconds of load before the peak's window: the bare baselines' warm-up (bare-baselines.ts). */
export const PEAK_WARM_UP_S = 1;

/** `seconds` of POST /transaction on HTTP_CONNECTIONS keep-alive connections (spread over `url` if several). */
export function submitLoad(url: string | string[], seconds: number, body: () => Uint8Array) {
  return autocannon({
    url,
    connections: HTTP_CONNECTIONS,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        path: '/transaction',
        headers: SUBMIT_HEADERS,
        setupRequest: (req) => ({ ...req, body: Buffer.from(body()) }),
      },
    ],
  });
}

export interface HttpPeak {
  txPerS: number;
  seconds: number;
  committed: number;
  accepted202: number;
  non2xx: number;
  errors: number;
  signedOnTheFly: number;
}

/**
 * Load before a measured window, as the bare baselines get theirs (bare-baselines.ts): a fresh process
 * compiles its hot path under the first requests. Returns once every transaction it got accepted is
 * final, so that none of them is counted in the window that follows.
 */
async function warmUp(node: HttpNode, seconds: number, body: () => Uint8Array): Promise<void> {
  const before = await node.nextCount();
  const r = await submitLoad(node.url, seconds, body);
  const target = before.committed + before.rejected + r['2xx'];
  const deadline = performance.now() + WARM_UP_DRAIN_MS;
  while (performance.now() < deadline) {
    const c = await node.nextCount();
    if (c.committed + c.rejected >= target) return;
  }
  throw new Error(`the warm-up's ${r['2xx']} transactions were not final after ${WARM_UP_DRAIN_MS} ms`);
}

/** `warmUpS` seconds of the same load first (not counted), when given. */
export async function httpPeak(
  node: HttpNode,
  seconds: number,
  presign: number,
  warmUpS = 0,
): Promise<HttpPeak> {
  const source = presignedSigned(node.accounts, BENCH_CHAIN_ID, presign);
  if (warmUpS > 0) await warmUp(node, warmUpS, () => source.next().bytes);
  const start = await node.nextCount();
  const r = await submitLoad(node.url, seconds, () => source.next().bytes);
  // The newest count when the load stops: commits of the backlog drained afterwards are not counted.
  const end = node.latest();
  const windowS = (end.atMs - start.atMs) / 1000;
  return {
    txPerS: (end.committed - start.committed) / windowS,
    seconds: windowS,
    committed: end.committed - start.committed,
    accepted202: r['2xx'],
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    signedOnTheFly: source.stats.onTheFly,
  };
}

export interface PacedRun {
  latenciesMs: number[];
  sent: number;
  accepted: number;
  refused: number;
  failed: number;
  uncommitted: number;
}

export async function httpPaced(node: HttpNode, ratePerS: number, seconds: number): Promise<PacedRun> {
  const source = presignedSigned(node.accounts, BENCH_CHAIN_ID, Math.ceil(ratePerS * seconds * 1.05));
  const pool = new Pool(node.url, { connections: HTTP_CONNECTIONS });
  const sentAt = new Map<string, number>();
  const run: PacedRun = { latenciesMs: [], sent: 0, accepted: 0, refused: 0, failed: 0, uncommitted: 0 };
  const inFlight: Promise<void>[] = [];
  const t0 = performance.now();
  try {
    while (performance.now() - t0 < seconds * 1000) {
      const due = Math.floor(((performance.now() - t0) / 1000) * ratePerS) - run.sent;
      for (let i = 0; i < due; i++) {
        const { bytes, hashHex } = source.next();
        sentAt.set(hashHex, performance.timeOrigin + performance.now());
        run.sent++;
        const req = pool.request({
          method: 'POST',
          path: '/transaction',
          headers: SUBMIT_HEADERS,
          body: bytes,
        });
        inFlight.push(
          req.then(
            async (res) => {
              await res.body.dump();
              if (res.statusCode === 202) run.accepted++;
              else run.refused++;
            },
            () => {
              run.failed++;
            },
          ),
        );
      }
      await sleep(PACE_TICK_MS);
    }
    await Promise.all(inFlight);
    const drainUntil = performance.now() + DRAIN_MS;
    while (performance.now() < drainUntil && [...sentAt.keys()].some((h) => !node.commits.has(h)))
      await sleep(50);
  } finally {
    await pool.close();
  }
  for (const [hash, t] of sentAt) {
    const c = node.commits.get(hash);
    if (c === undefined) run.uncommitted++;
    else run.latenciesMs.push(c - t);
  }
  return run;
}
