// A simulated cluster: n validators (and optionally an observer), each a real Ledger + Pipeline +
// BftEngine on its own SimDisk, talking over one SimNetwork, all on one SimClock. Peers are booted,
// crashed and rebooted here; the fault schedule (faults.ts) and the run loop (run.ts) drive it.

import { DEFAULT_DECODE_LIMITS } from '../codec/limits.js';
import { decodePeerMessage, toCoreMessage } from '../consensus/bft/messages.js';
import type { BftTransport, SafetyStore } from '../consensus/bft/ports.js';
import type { PlantedBug, SafetyState } from '../consensus/bft/types.js';
import { ConsensusInvariantError } from '../consensus/bft/types.js';
import { TABLE_TAGS } from '../model/tags.js';
import { AssertionError } from '../util/assert.js';
import { Byzantine, type ByzantineKind } from './byzantine.js';
import { Checkers } from './checkers.js';
import { SimClock } from './clock.js';
import { SimDisk } from './disk.js';
import { SIM_CHAIN_ID, SIM_GENESIS_MS, type SimFixtures, simFixtures } from './fixtures.js';
import { HashVoteCrypto } from './hash-vote-crypto.js';
import { SimNetwork } from './network.js';
import { type NodeSettings, openPeer, type SimPeer } from './node.js';
import { Prng } from './prng.js';
import { RuleChecker } from './rules.js';
import { Trace } from './trace.js';

export interface SimNode {
  index: number;
  name: string;
  peer: string;
  byzantine?: ByzantineKind;
  disk: SimDisk;
  p?: SimPeer | undefined;
  booting: boolean;
  byz?: Byzantine;
}

export interface WorldOptions {
  n: 4 | 7;
  observer: boolean;
  pacemakerBaseMs: number;
  /** Collectors per view (default 2). */
  collectorsK?: number;
  plantedBug?: PlantedBug;
  /** Plant a one-row state divergence: the first honest peer's state tree holds one extra row from height 2 on. */
  plantedRowDivergence?: boolean;
  traceMax: number;
  traceMessages: boolean;
}

export class World {
  readonly prng: Prng;
  readonly fx: SimFixtures;
  readonly clock = new SimClock(SIM_GENESIS_MS + 1_000);
  readonly net: SimNetwork;
  readonly nodes: SimNode[];
  readonly checkers: Checkers;
  readonly rules = new RuleChecker();
  /**
   * Called as an honest peer starts to persist a safety record with a lock newer than its durable one
   * (the hunt's adversary crashes it there, between locking and persisting).
   */
  onLockSave: ((node: SimNode, s: SafetyState) => void) | undefined;
  readonly trace: Trace;
  readonly faults: Record<string, number> = {};
  private readonly minIntervalMs: number;
  stopped = false;

  constructor(
    readonly seed: number,
    readonly o: WorldOptions,
  ) {
    this.prng = new Prng(seed);
    this.fx = simFixtures(o.n);
    const peers = [...this.fx.peers, ...(o.observer ? [this.fx.observer] : [])];
    this.net = new SimNetwork(this.clock, this.prng.fork(), peers, {
      lossP: this.prng.float() * 0.3,
      dupP: this.prng.float() * 0.1,
      baseMs: this.prng.int(1, 20),
      jitterMs: this.prng.int(0, 20),
    });
    this.minIntervalMs = this.prng.int(0, 50);
    const writeFailP = this.prng.chance(0.3) ? this.prng.float() * 0.02 : 0;
    const syncMsMax = this.prng.int(0, 5);
    this.nodes = peers.map((peer, index) => ({
      index,
      name: index < o.n ? `v${index}` : 'obs',
      peer,
      disk: new SimDisk(this.clock, this.prng.fork(), { writeFailP, syncMsMax }),
      booting: false,
    }));
    this.checkers = new Checkers(this.fx.roster, new HashVoteCrypto(SIM_CHAIN_ID, undefined));
    this.trace = new Trace(o.traceMax);
    if (o.traceMessages)
      this.net.onDeliver = (from, to, n) => this.log(`${this.nameOf(from)}>${this.nameOf(to)} ${n}B`);
  }

  nameOf(peer: string): string {
    return this.nodes.find((x) => x.peer === peer)?.name ?? '?';
  }

  log(line: string): void {
    this.trace.add(this.clock.elapsedMs, line);
  }

  count(kind: string): void {
    this.faults[kind] = (this.faults[kind] ?? 0) + 1;
  }

  honest(): SimNode[] {
    return this.nodes.filter((x) => x.byzantine === undefined);
  }

  makeByzantine(node: SimNode, kind: ByzantineKind): void {
    node.byzantine = kind;
    node.byz = new Byzantine(kind, node.peer, this.net, this.fx, () => node.p, this.prng.fork());
  }

  private settings(node: SimNode): NodeSettings {
    return {
      fx: this.fx,
      clock: this.clock,
      pacemakerBaseMs: this.o.pacemakerBaseMs,
      minIntervalMs: this.minIntervalMs,
      collectorsK: this.o.collectorsK ?? 2,
      ...(node.byzantine === undefined ? { safety: this.watchedSafety(node) } : {}),
      ...(this.o.plantedBug === undefined || node.byzantine !== undefined
        ? {}
        : { plantedBug: this.o.plantedBug }),
      onEvidence: (f) => {
        this.count(`evidence_${f.kind}`);
        this.log(
          `${node.name} evidence ${f.kind}${f.kind === 'InvalidProposal' ? ` ${f.reason} from ${this.nameOf(f.proposer)} v${f.view}` : ''}`,
        );
      },
      onFatal: (e) => this.fatal(node, e),
    };
  }

  /** The first failure of any checker (safety, rules). */
  get failure(): string | undefined {
    return this.checkers.failure ?? this.rules.failure;
  }

  /** The disk's safety store, with every durable record shown to the rule checker. */
  private watchedSafety(node: SimNode): SafetyStore {
    const inner = node.disk.safetyStore();
    let durableLockView = -1;
    let durableHeight = -1;
    return {
      load: inner.load,
      save: async (s) => {
        const lockView = s.height === durableHeight ? durableLockView : -1;
        if (s.lockedQc !== undefined && s.lockedQc.view > lockView) this.onLockSave?.(node, s);
        await inner.save(s);
        durableHeight = s.height;
        durableLockView = s.lockedQc?.view ?? -1;
        this.rules.recorded(node.name, s);
      },
    };
  }

  /** An honest peer's transport, with every vote it sends shown to the rule checker. */
  private watchedTransport(node: SimNode, inner: BftTransport): BftTransport {
    const tap = (bytes: Uint8Array) => {
      const m = decodePeerMessage(bytes, DEFAULT_DECODE_LIMITS);
      const c = m === undefined ? undefined : toCoreMessage(m);
      if (c?.kind === 'Vote') this.rules.sent(node.name, c);
    };
    return {
      reportGarbage: inner.reportGarbage,
      send: (to, bytes) => {
        tap(bytes);
        inner.send(to, bytes);
      },
      broadcast: (bytes) => {
        tap(bytes);
        inner.broadcast(bytes);
      },
    };
  }

  private fatal(node: SimNode, e: unknown): void {
    // A failed assertion in an honest core (the core's invariants, or an always-on assertion before a
    // vote) is a found violation, reported with the seed, not a crash to restart from.
    if (
      (e instanceof ConsensusInvariantError || e instanceof AssertionError) &&
      node.byzantine === undefined
    ) {
      this.checkers.failure ??= `${e.name} at ${node.name}: ${e.message}`;
      return;
    }
    this.log(`${node.name} fatal: ${e instanceof Error ? e.message : String(e)}`);
    this.count('fatal_restart');
    this.crash(node);
    this.clock.setTimeout(() => void this.boot(node), 100);
  }

  /** Opens a peer from its disk and connects it to every peer it can reach. */
  async boot(node: SimNode): Promise<void> {
    if (node.p !== undefined || node.booting || this.stopped) return;
    node.booting = true;
    let p: SimPeer;
    const transport = node.byz?.transport() ?? this.watchedTransport(node, this.net.transportFor(node.peer));
    try {
      p = await openPeer(node.peer, node.disk, transport, this.settings(node));
    } catch (e) {
      node.booting = false;
      this.log(`${node.name} boot failed: ${e instanceof Error ? e.message : String(e)}`);
      node.disk.crash();
      this.clock.setTimeout(() => void this.boot(node), 200);
      return;
    }
    node.booting = false;
    node.p = p;
    if (this.o.plantedRowDivergence === true && node === this.nodes.find((n) => n.byzantine === undefined))
      plantRowDivergence(p);
    if (node.byzantine === undefined) {
      // Proposals handed to the core (their justify) for the rule checker; the core itself is untouched.
      const core = p.engine.core;
      const step = core.step.bind(core);
      core.step = (i) => {
        if (i.kind === 'Message' && i.msg.kind === 'Proposal') this.rules.proposal(node.name, i.msg);
        const out = step(i);
        for (const e of out)
          if (e.kind === 'Broadcast' && e.msg.kind === 'Proposal') this.rules.proposal(node.name, e.msg);
        return out;
      };
    }
    this.log(`${node.name} up at height ${p.ledger.height()}`);
    if (node.byzantine === undefined) this.checkers.reopened(node.name, p.ledger);
    p.pipeline.onCommit((executed) => {
      const h = executed.header.height;
      this.log(
        `${node.name} commit ${h} ${Buffer.from(executed.hash).toString('hex').slice(0, 10)} txs=${executed.transactions.length}`,
      );
      if (node.byzantine === undefined)
        this.checkers.committed(node.name, executed, p.ledger.blockSync(h)?.certificate);
    });
    this.net.attach(node.peer, (from, bytes) => {
      node.byz?.observe(bytes);
      p.engine.onMessage(from, bytes);
    });
    for (const other of this.nodes) {
      if (other === node || other.p === undefined || !this.net.linked(node.peer, other.peer)) continue;
      p.engine.peerConnected(other.peer);
      other.p.engine.peerConnected(node.peer);
    }
  }

  crash(node: SimNode): void {
    const p = node.p;
    if (p === undefined) return;
    node.p = undefined;
    this.net.detach(node.peer);
    void p.engine.stop();
    node.disk.crash();
    this.log(`${node.name} crash`);
  }

  /** Tells every linked pair of running peers that they are connected (after a heal). */
  reconnectAll(): void {
    for (const a of this.nodes)
      for (const b of this.nodes)
        if (a !== b && a.p !== undefined && b.p !== undefined && this.net.linked(a.peer, b.peer))
          a.p.engine.peerConnected(b.peer);
  }
}

/** One row only this peer's state tree holds, from height 2 on: a divergence of one row (planted bug). */
function plantRowDivergence(p: SimPeer): void {
  const tree = p.ledger.state.tree;
  const prepare = tree.prepare.bind(tree);
  // A state key: the table's tag byte, then the id in UTF-8 (the state's key scheme, docs/ledger-proofs.md).
  const key = Uint8Array.of(TABLE_TAGS.domain, ...new TextEncoder().encode('planted-divergence'));
  const row = { key, value: Uint8Array.of(1) };
  tree.prepare = (changes, version) =>
    prepare(version !== undefined && version >= 2 ? [...changes, row] : changes, version);
}
