// Figure `bft4_view_change_ms` (the leader killed to the next commit, goal <= 2,000 ms).
// A 4-validator network of its own, in 4 processes, with consensus.view_timeout_ms = VIEW_TIMEOUT_MS and
// every other consensus timer at the node's default, under a light load (LIGHT_RATE_PER_S transfers a
// second to the gateways in turn). Each trial: the load pauses until every peer has committed everything
// (so the leader of the next height has not proposed yet), the peers name that leader (GET
// /v1/consensus/status `leader_index`), it is killed with SIGKILL, the load resumes at once on the
// survivors, and the trial lasts from the kill until every survivor has announced its next block commit
// on its event stream. The killed peer is then restarted and catches up before the next trial.
// The figure is the slowest trial; the view changes the survivors counted (by cause) are in `extra`, and
// so, in full runs, are 2 trials with the node's default view timeout on a fresh network.

import { defaultConfig } from '../../src/config/schema.js';
import { LightLoad } from '../lib/bft-light-load.js';
import { BFT_NETWORK_NOTE, BftNetwork } from '../lib/bft-network.js';
import { BFT_VALIDATORS } from '../lib/fixtures.js';
import { median, sleep } from '../lib/timing.js';
import { type Figure, type FigureContext, type FigureResult, notMeasured } from '../lib/types.js';

const GOAL_MS = 2_000;
const GOAL = `<= ${GOAL_MS.toLocaleString('en')} ms from kill -9 of the leader to the next commit at every survivor`;
/** A realistic view timeout, shorter than the node's default (2,000 ms); no other consensus key changes. */
const VIEW_TIMEOUT_MS = 1_000;
const DEFAULT_VIEW_TIMEOUT_MS = defaultConfig().consensus.viewTimeoutMs;
/** Trials with the default view timeout (full runs only). */
const DEFAULT_TIMEOUT_TRIALS = 2;
const LIGHT_RATE_PER_S = 20;
const STEADY_MS = 2_000;
const IDLE_TIMEOUT_MS = 60_000;
/** A trial whose survivors have not all committed by then fails the figure (no number is invented). */
const COMMIT_TIMEOUT_MS = 30_000;

function epochNow(): number {
  return performance.timeOrigin + performance.now();
}

interface Trial {
  /** Kill to the next commit at the last survivor, and at the first. */
  allMs: number;
  firstMs: number;
  viewChanges: number;
  causes: Record<string, number>;
}

/** Resolves with each survivor's first block commit (epoch ms) after `sinceMs` above `height`. */
function nextCommits(net: BftNetwork, survivors: number[], height: number, sinceMs: number) {
  const first = new Map<number, number>();
  let stop = () => {};
  const done = new Promise<Map<number, number>>((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`survivors ${survivors.join(',')} did not all commit within ${COMMIT_TIMEOUT_MS} ms`));
    }, COMMIT_TIMEOUT_MS);
    stop = net.tracker.onBlock((b) => {
      if (b.atMs < sinceMs || b.height <= height || !survivors.includes(b.peer) || first.has(b.peer)) return;
      first.set(b.peer, b.atMs);
      if (first.size === survivors.length) {
        clearTimeout(timer);
        stop();
        resolve(first);
      }
    });
  });
  return done;
}

async function viewChangesOf(net: BftNetwork, peers: number[]) {
  const all = await net.statuses();
  const causes: Record<string, number> = {};
  let total = 0;
  for (const i of peers) {
    const s = all[i];
    if (s === undefined) throw new Error(`peer ${i} does not answer /v1/consensus/status`);
    total += s.view_changes;
    for (const [c, n] of Object.entries(s.view_change_causes)) causes[c] = (causes[c] ?? 0) + n;
  }
  return { total, causes };
}

async function trial(ctx: FigureContext, net: BftNetwork, load: LightLoad): Promise<Trial> {
  await sleep(STEADY_MS);
  await load.pause();
  await net.waitIdle(IDLE_TIMEOUT_MS);
  const { peer: leader, height } = await net.leader();
  if (leader === undefined) throw new Error('the peers name no leader');
  const survivors = net.peers.map((_, i) => i).filter((i) => i !== leader);
  const before = await viewChangesOf(net, survivors);
  const killedAt = epochNow();
  const commits = nextCommits(net, survivors, height, killedAt);
  await net.kill9(leader);
  load.targets = survivors;
  load.resume();
  const first = await commits;
  const after = await viewChangesOf(net, survivors);
  const times = [...first.values()].map((t) => t - killedAt);
  const causes: Record<string, number> = {};
  for (const [c, n] of Object.entries(after.causes)) {
    const d = n - (before.causes[c] ?? 0);
    if (d > 0) causes[c] = d;
  }
  const t: Trial = {
    allMs: Math.max(...times),
    firstMs: Math.min(...times),
    viewChanges: after.total - before.total,
    causes,
  };
  ctx.log(`killed leader peer-${leader} at height ${height}: ${t.allMs.toFixed(0)} ms, ${JSON.stringify(t)}`);
  await net.restart(leader);
  load.targets = net.peers.map((_, i) => i);
  return t;
}

interface Measured {
  trials: Trial[];
  sent: number;
  refused: number;
}

/** `trials` trials on a network of their own; `viewTimeoutMs` undefined keeps the node's default. */
async function measure(
  ctx: FigureContext,
  viewTimeoutMs: number | undefined,
  trials: number,
): Promise<Measured> {
  ctx.log(
    `starting ${BFT_VALIDATORS} validators (consensus.view_timeout_ms ${viewTimeoutMs ?? DEFAULT_VIEW_TIMEOUT_MS})`,
  );
  const net = await BftNetwork.start({
    validators: BFT_VALIDATORS,
    ...(viewTimeoutMs === undefined ? {} : { config: { 'consensus.view_timeout_ms': viewTimeoutMs } }),
    log: ctx.log,
  });
  const load = new LightLoad(net, LIGHT_RATE_PER_S);
  const results: Trial[] = [];
  try {
    load.resume();
    for (let i = 0; i < trials; i++) results.push(await trial(ctx, net, load));
  } finally {
    await load.pause();
    await net.stop();
  }
  return { trials: results, sent: load.sent, refused: load.refused };
}

function slowest(m: Measured): number {
  return Math.max(...m.trials.map((r) => r.allMs));
}

/** The node's default view timeout, measured too in full runs (not with --quick), for comparison. */
async function withDefault(ctx: FigureContext): Promise<Record<string, number | string>> {
  if (ctx.quick) return { default_view_timeout: 'not measured with --quick' };
  const m = await measure(ctx, undefined, DEFAULT_TIMEOUT_TRIALS);
  return {
    default_view_timeout_ms: DEFAULT_VIEW_TIMEOUT_MS,
    default_view_timeout_slowest_ms: slowest(m),
    default_view_timeout_trials_ms: m.trials.map((r) => r.allMs.toFixed(0)).join(' '),
  };
}

export const bft4ViewChangeFigure: Figure = {
  id: 'bft4_view_change_ms',
  async run(ctx): Promise<FigureResult> {
    const missing = await ctx.fixtures.gatewayMissing();
    if (missing !== undefined) return notMeasured('bft4_view_change_ms', 'ms', GOAL, missing);
    await ctx.fixtures.closeBftNetwork();
    const trials = ctx.quick ? 2 : 5;
    const m = await measure(ctx, VIEW_TIMEOUT_MS, trials);
    const worst = slowest(m);
    const causes: Record<string, number> = {};
    for (const r of m.trials) for (const [c, n] of Object.entries(r.causes)) causes[c] = (causes[c] ?? 0) + n;
    return {
      id: 'bft4_view_change_ms',
      value: worst,
      unit: 'ms',
      baseline: 'consensus.view_timeout_ms',
      baseline_value: VIEW_TIMEOUT_MS,
      ratio: worst / VIEW_TIMEOUT_MS,
      goal: GOAL,
      met: worst <= GOAL_MS,
      note:
        `${BFT_NETWORK_NOTE}; commits seen on every survivor's GET /events; consensus.view_timeout_ms ` +
        `${VIEW_TIMEOUT_MS} (node default ${DEFAULT_VIEW_TIMEOUT_MS}, measured too in full runs: extra), ` +
        `other consensus keys at their defaults; ${LIGHT_RATE_PER_S} tx/s; slowest of ${trials} trials`,
      extra: {
        trials,
        median_ms: median(m.trials.map((r) => r.allMs)),
        first_survivor_median_ms: median(m.trials.map((r) => r.firstMs)),
        trials_ms: m.trials.map((r) => r.allMs.toFixed(0)).join(' '),
        view_changes_counted_by_survivors: m.trials.reduce((a, r) => a + r.viewChanges, 0),
        view_change_causes: JSON.stringify(causes),
        light_load_sent: m.sent,
        light_load_refused: m.refused,
        ...(await withDefault(ctx)),
      },
    };
  },
};
