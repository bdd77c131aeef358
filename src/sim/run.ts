// One seed, start to end: draw the cluster and its fault mix, run the fault phase (crashes, partitions,
// loss, duplication, disk write failures, byzantine peers), then the liveness phase (everything healed
// and restarted, no loss): honest peers must commit every acknowledged transaction within the budget.
// The checkers run after every event; the first violation ends the run.

import type { PlantedBug } from '../consensus/bft/types.js';
import { installAdversary } from './adversary.js';
import { BYZANTINE_KINDS, type ByzantineKind } from './byzantine.js';
import type { HuntMix } from './hunt.js';
import { World } from './world.js';

export interface RunOptions {
  n: 4 | 7;
  observer?: boolean;
  /** Simulated milliseconds of faults (default 3,000). */
  faultPhaseMs?: number;
  /** Simulated milliseconds the healed cluster gets to commit everything (default 30 s at the 200 ms base). */
  livenessMs?: number;
  /** Client transactions submitted during the fault phase (default 6). */
  txs?: number;
  plantedBug?: PlantedBug;
  /** Plant a one-row divergence in the first honest peer's state tree (world.ts). */
  plantedRowDivergence?: boolean;
  /** Byzantine peers: up to f drawn per seed ('random', the default), none, or only these kinds. */
  byzantine?: 'random' | 'none' | readonly ByzantineKind[];
  /** Draw more partitions and crashes, and byzantine leaders send their fresh block to everyone (the hunt). */
  aggressive?: boolean;
  /** The planted-bug hunt's draws (hunt.ts): exact byzantine kinds and the adversary's mix; implies aggressive. */
  hunt?: HuntMix;
  /** Collectors per view (default 2). */
  collectorsK?: number;
  /** Byzantine peers also send their votes and NEW_VIEWs at view + FAR_VIEW (the hunt draws it itself). */
  farView?: boolean;
  pacemakerBaseMs?: number;
  traceMax?: number;
  traceMessages?: boolean;
}

export interface RunResult {
  seed: number;
  ok: boolean;
  failure?: string;
  trace: string[];
  traceHash: string;
  stats: {
    simulatedMs: number;
    events: number;
    messages: number;
    faults: Record<string, number>;
    /** Honest votes the rule checker checked (rules.ts). */
    votesChecked: number;
    heights: Record<string, number>;
    acked: number;
  };
}

function scheduleFaults(w: World, o: RunOptions, faultMs: number): void {
  const { prng, nodes } = w;
  const validators = nodes.filter((x) => x.index < o.n);
  const events = prng.int(0, o.aggressive === true || o.hunt !== undefined ? 12 : 6);
  for (let i = 0; i < events; i++) {
    const at = prng.int(0, faultMs);
    const kind = prng.pick(['crash', 'partition', 'partition', 'loss'] as const);
    if (kind === 'crash') {
      const node = prng.pick(validators);
      const back = prng.int(50, 2_000);
      w.clock.setTimeout(() => {
        if (node.p === undefined) return;
        w.count('crash');
        w.crash(node);
        if (w.clock.elapsedMs + back < faultMs) w.clock.setTimeout(() => void w.boot(node), back);
      }, at);
    } else if (kind === 'partition') {
      const group = nodes.filter(() => prng.chance(0.5)).map((x) => x.peer);
      const heal = prng.int(100, 3_000);
      w.clock.setTimeout(() => {
        w.count('partition');
        w.net.partition(group);
        w.log(`partition {${group.map((p) => w.nameOf(p)).join(',')}}`);
      }, at);
      w.clock.setTimeout(() => {
        w.net.heal();
        w.log('heal');
        w.reconnectAll();
      }, at + heal);
    } else {
      const lossP = prng.float() * 0.3;
      w.clock.setTimeout(() => {
        w.count('loss_change');
        w.net.faults = { ...w.net.faults, lossP };
      }, at);
    }
  }
}

function chooseByzantine(w: World, o: RunOptions): void {
  if (o.hunt !== undefined) {
    const validators = w.nodes.filter((x) => x.index < o.n);
    for (const kind of o.hunt.byzantine) {
      const node = validators.splice(w.prng.int(0, validators.length - 1), 1)[0]!;
      w.makeByzantine(node, kind);
      node.byz!.allAlternative = true;
      node.byz!.farView = o.hunt.farView;
      w.count(`byzantine_${kind}`);
      w.log(`${node.name} is byzantine: ${kind}`);
    }
    return;
  }
  const choice = o.byzantine ?? 'random';
  if (choice === 'none') return;
  const f = w.fx.roster.f;
  const count = choice === 'random' ? w.prng.int(0, f) : f;
  const kinds = choice === 'random' ? BYZANTINE_KINDS : choice;
  const validators = w.nodes.filter((x) => x.index < o.n);
  for (let i = 0; i < count; i++) {
    const node = validators.splice(w.prng.int(0, validators.length - 1), 1)[0]!;
    w.makeByzantine(node, w.prng.pick(kinds));
    if (o.aggressive === true && node.byz !== undefined) node.byz.allAlternative = true;
    if (o.farView === true && node.byz !== undefined) node.byz.farView = true;
    w.count(`byzantine_${node.byzantine}`);
    w.log(`${node.name} is byzantine: ${node.byzantine}`);
  }
}

/** A client: submits `count` pool transactions to random running honest peers, retrying later. */
class Client {
  readonly acked = new Set<number>();
  private readonly picks: number[];

  constructor(
    private readonly w: World,
    count: number,
  ) {
    const pool = w.fx.pool.map((_, i) => i);
    this.picks = Array.from(
      { length: Math.min(count, pool.length) },
      () => pool.splice(w.prng.int(0, pool.length - 1), 1)[0]!,
    );
  }

  schedule(untilMs: number): void {
    for (const i of this.picks) this.w.clock.setTimeout(() => this.submit(i), this.w.prng.int(0, untilMs));
  }

  submit(i: number): void {
    const up = this.w.honest().filter((x) => x.p !== undefined && x.index < this.w.o.n);
    if (up.length === 0) return;
    const node = this.w.prng.pick(up);
    void node.p!.pipeline.submit(this.w.fx.pool[i]!).then((r) => {
      if (r.ok || r.kind === 'duplicate') this.acked.add(i);
      this.w.log(`submit tx${i} to ${node.name}: ${r.ok ? 'ok' : `${r.kind}`}`);
    });
  }

  /** Acknowledged transactions some honest peer has not committed yet. */
  missing(): number[] {
    const out: number[] = [];
    for (const i of this.acked) {
      const h = this.w.fx.poolHashes[i]!;
      if (live(this.w).some((x) => x.p === undefined || x.p.ledger.locate(h) === undefined)) out.push(i);
    }
    return out;
  }
}

/**
 * The peers liveness is required of: honest validators. An observer has no view timer, so when it misses
 * the last commits of a quiet cluster nothing tells it to sync (reported; only safety is checked for it).
 */
function live(w: World) {
  return w.honest().filter((x) => x.index < w.o.n);
}

function converged(w: World, c: Client): boolean {
  const hs = live(w).map((x) => x.p?.ledger.height() ?? -1);
  return hs.every((h) => h === hs[0] && h >= 1) && c.missing().length === 0;
}

export async function runSeed(seed: number, o: RunOptions): Promise<RunResult> {
  const base = o.pacemakerBaseMs ?? 200;
  const faultMs = o.faultPhaseMs ?? 3_000;
  const livenessMs = o.livenessMs ?? 30 * base * 5;
  const w = new World(seed, {
    n: o.n,
    observer: o.observer ?? false,
    pacemakerBaseMs: base,
    ...(o.collectorsK === undefined ? {} : { collectorsK: o.collectorsK }),
    ...(o.plantedBug === undefined ? {} : { plantedBug: o.plantedBug }),
    ...(o.plantedRowDivergence === undefined ? {} : { plantedRowDivergence: o.plantedRowDivergence }),
    traceMax: o.traceMax ?? 200,
    traceMessages: o.traceMessages ?? false,
  });
  chooseByzantine(w, o);
  if (o.hunt !== undefined) installAdversary(w, o.hunt, faultMs);
  for (const node of w.nodes) w.clock.setTimeout(() => void w.boot(node), 0);
  scheduleFaults(w, o, faultMs);
  const client = new Client(w, o.txs ?? 6);
  client.schedule(faultMs);
  let done = false;
  w.clock.setTimeout(() => startLiveness(w, client, () => (done = true)), faultMs);
  const deadline = faultMs + livenessMs;
  let thrown: string | undefined;
  try {
    await w.clock.run(deadline, () => w.failure === undefined && !done);
  } catch (e) {
    // Whatever escapes an event (an assertion outside the cores' fatal path included) is a finding of
    // this seed, not the end of a hunt.
    thrown = `thrown: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`;
  }
  w.stopped = true;
  const heights = Object.fromEntries(w.nodes.map((x) => [x.name, x.p?.ledger.height() ?? 0]));
  let failure = w.failure ?? thrown;
  if (failure === undefined && !done) {
    const missing = client.missing();
    failure = `liveness: after ${deadline} ms, ${missing.length} acknowledged transactions not committed everywhere (heights ${live(
      w,
    )
      .map((x) => `${x.name}=${x.p?.ledger.height() ?? 'down'}`)
      .join(' ')})`;
  }
  if (failure !== undefined) w.log(`FAIL ${failure}`);
  for (const node of w.nodes) w.crash(node);
  const byz: Record<string, number> = {};
  for (const node of w.nodes)
    for (const [k, v] of Object.entries(node.byz?.did ?? {})) byz[`byz_${k}`] = (byz[`byz_${k}`] ?? 0) + v;
  return {
    seed,
    ok: failure === undefined,
    ...(failure === undefined ? {} : { failure }),
    trace: w.trace.tail(),
    traceHash: `${w.trace.digest.toString(16)}-${(w.net.digest >>> 0).toString(16)}`,
    stats: {
      simulatedMs: w.clock.elapsedMs,
      events: w.clock.events,
      messages: w.net.stats.sent,
      faults: {
        ...w.faults,
        lost: w.net.stats.lost,
        duplicated: w.net.stats.duplicated,
        cut: w.net.stats.cut,
        writeFailures: w.nodes.reduce((n, x) => n + x.disk.stats.writeFailures, 0),
        ...byz,
      },
      votesChecked: w.rules.stats.prepareVotes + w.rules.stats.commitVotes,
      heights,
      acked: client.acked.size,
    },
  };
}

function startLiveness(w: World, c: Client, done: () => void): void {
  w.log('liveness phase: heal, restart, no loss');
  w.net.heal();
  w.net.faults = { ...w.net.faults, lossP: 0, dupP: 0 };
  for (const node of w.nodes) {
    node.disk.faults = { ...node.disk.faults, writeFailP: 0 };
    if (node.p === undefined) void w.boot(node);
  }
  w.reconnectAll();
  const tick = () => {
    if (converged(w, c)) {
      done();
      return;
    }
    for (const i of c.missing()) c.submit(i);
    w.clock.setTimeout(tick, 250);
  };
  w.clock.setTimeout(tick, 50);
}
