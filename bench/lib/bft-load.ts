// HTTP load against a BFT network (bft-network.ts), as http-load.ts loads one node: signed one-transfer
// transactions to `POST /transaction`, spread round-robin over every peer's gateway. The peak uses
// autocannon (its 32 keep-alive connections spread over the gateways in turn); the paced run uses one
// undici pool per gateway and sends transaction n to gateway n mod 4. A transaction counts as committed
// when every peer has announced it on its event stream (bft-commits.ts).

import { Pool } from 'undici';
import { HTTP_CONNECTIONS } from './bare-baselines.js';
import { BFT_CHAIN_ID, type BftNetwork } from './bft-network.js';
import { SUBMIT_HEADERS, submitLoad } from './http-load.js';
import { sleep } from './timing.js';
import { presignedSigned } from './transfers.js';

const PACE_TICK_MS = 10;
/** After a paced run, how long stragglers may take to commit everywhere before the rest count as lost. */
const DRAIN_MS = 10_000;

/** A stream that closed under load (e.g. `lagged`) lost commits: the run cannot be counted. */
function checkStreams(net: BftNetwork): void {
  const n = net.tracker.closedUnexpectedly;
  if (n > 0) throw new Error(`${n} event stream(s) closed during the load: commits were not all seen`);
}

function epochNow(): number {
  return performance.timeOrigin + performance.now();
}

export interface BftPeak {
  txPerS: number;
  /** The counting window (after the warm-up). */
  seconds: number;
  warmupS: number;
  /** Committed at every peer within the load window. */
  committed: number;
  accepted202: number;
  non2xx: number;
  errors: number;
  signedOnTheFly: number;
  /** Heights decided during the load and the warm-up (peer 0's count), and view changes at each peer. */
  heights: number;
  viewChanges: number[];
  viewChangeCauses: Record<string, number>;
}

/** View changes of each peer and the causes summed over the peers (GET /v1/consensus/status). */
async function viewChangesOf(
  net: BftNetwork,
): Promise<{ height: number; each: number[]; causes: Record<string, number> }> {
  const statuses = await net.statuses();
  const causes: Record<string, number> = {};
  for (const s of statuses)
    for (const [k, v] of Object.entries(s?.view_change_causes ?? {})) causes[k] = (causes[k] ?? 0) + v;
  return { height: statuses[0]?.height ?? 0, each: statuses.map((s) => s?.view_changes ?? 0), causes };
}

/**
 * `warmupS + seconds` of load; commits count from `warmupS` in. A block of the network takes seconds to
 * go through 4 processes on 2 cores, so a window that opens with the load would mostly measure the
 * pipeline filling (the single peer fills it in well under a second).
 */
export async function bftPeak(
  net: BftNetwork,
  opts: { seconds: number; warmupS: number; presign: number },
): Promise<BftPeak> {
  const source = presignedSigned(net.accounts, BFT_CHAIN_ID, opts.presign);
  const before = await viewChangesOf(net);
  const startMs = epochNow() + opts.warmupS * 1000;
  const r = await submitLoad(net.urls, opts.warmupS + opts.seconds, () => source.next().bytes);
  // As the single-peer figure: commits of the backlog drained after the load stops are not counted; the
  // 202 counts below cover the warm-up too.
  const endMs = epochNow();
  checkStreams(net);
  const after = await viewChangesOf(net);
  const causes: Record<string, number> = {};
  for (const [k, v] of Object.entries(after.causes)) causes[k] = v - (before.causes[k] ?? 0);
  const committed = net.tracker.countBetween(startMs, endMs);
  const windowS = (endMs - startMs) / 1000;
  return {
    txPerS: committed / windowS,
    seconds: windowS,
    warmupS: opts.warmupS,
    committed,
    accepted202: r['2xx'],
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    signedOnTheFly: source.stats.onTheFly,
    heights: after.height - before.height,
    viewChanges: after.each.map((n, i) => n - (before.each[i] ?? 0)),
    viewChangeCauses: causes,
  };
}

export interface BftPacedRun {
  /** Submit (just before the request) → committed at every peer, per transaction that got there. */
  latenciesMs: number[];
  sent: number;
  accepted: number;
  refused: number;
  failed: number;
  uncommitted: number;
}

function sendOne(pool: Pool, bytes: Uint8Array, run: BftPacedRun): Promise<void> {
  const req = pool.request({ method: 'POST', path: '/transaction', headers: SUBMIT_HEADERS, body: bytes });
  return req.then(
    async (res) => {
      await res.body.dump();
      if (res.statusCode === 202) run.accepted++;
      else run.refused++;
    },
    () => {
      run.failed++;
    },
  );
}

/** `ratePerS` transactions a second for `seconds`, round-robin over the gateways. */
export async function bftPaced(net: BftNetwork, ratePerS: number, seconds: number): Promise<BftPacedRun> {
  const source = presignedSigned(net.accounts, BFT_CHAIN_ID, Math.ceil(ratePerS * seconds * 1.05));
  const perPool = Math.max(1, Math.floor(HTTP_CONNECTIONS / net.urls.length));
  const pools = net.urls.map((url) => new Pool(url, { connections: perPool }));
  const sentAt = new Map<string, number>();
  const run: BftPacedRun = { latenciesMs: [], sent: 0, accepted: 0, refused: 0, failed: 0, uncommitted: 0 };
  const inFlight: Promise<void>[] = [];
  const t0 = performance.now();
  try {
    while (performance.now() - t0 < seconds * 1000) {
      const due = Math.floor(((performance.now() - t0) / 1000) * ratePerS) - run.sent;
      for (let i = 0; i < due; i++) {
        const { bytes, hashHex } = source.next();
        sentAt.set(hashHex, epochNow());
        const pool = pools[run.sent % pools.length]!;
        run.sent++;
        inFlight.push(sendOne(pool, bytes, run));
      }
      await sleep(PACE_TICK_MS);
    }
    await Promise.all(inFlight);
    const drainUntil = performance.now() + DRAIN_MS;
    const pending = () => [...sentAt.keys()].some((h) => net.tracker.committedAtAll(h) === undefined);
    while (performance.now() < drainUntil && pending()) await sleep(50);
  } finally {
    await Promise.all(pools.map((p) => p.close()));
  }
  checkStreams(net);
  for (const [hash, t] of sentAt) {
    const c = net.tracker.committedAtAll(hash);
    if (c === undefined) run.uncommitted++;
    else run.latenciesMs.push(c - t);
  }
  return run;
}
