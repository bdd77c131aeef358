// The BFT engine (docs/consensus.md): runs the pure core against the node's parts. Inputs (peer messages,
// timer expiries, work, results of execution and commits) go through `core.step`; the effects it returns
// run one after another on a serial queue, so a `Persist` is durable before the votes after it leave and
// a commit never interleaves with a synced append. The simulator drives this same class with its own
// clock, transport and disk.

import { CODEC_VERSION, encode } from '../../codec/frame.js';
import type { DecodeLimits } from '../../codec/limits.js';
import type { CommitCertificate } from '../../model/block.js';
import { encodeProposedBlock } from '../../model/block.js';
import { SignedTransactionCodec } from '../../model/transaction.js';
import type { ExecutedBlock } from '../../pipeline/executed-block.js';
import type { QueuedTransaction } from '../../pipeline/queue.js';
import { unreachable } from '../../util/assert.js';
import type { Timer } from '../../util/clock.js';
import { bytesEqual, toHex } from '../../util/hex.js';
import { DueWake } from '../due-wake.js';
import type { ConsensusEngine, ConsensusSnapshot } from '../engine.js';
import type { ValidatorSet } from '../validator-set.js';
import { BftCore } from './core.js';
import {
  decodePeerMessage,
  encodeCoreMessage,
  encodePeerMessage,
  GOSSIP_TXS_MAX,
  type PeerMessage,
  SYNC_BLOCKS_MAX,
  toCoreMessage,
} from './messages.js';
import type { BftDriverOptions, BftHost, BftTransport, SafetyStore } from './ports.js';
import { assertVotesPersisted } from './safety-checks.js';
import { PhaseAverages, snapshotOf } from './snapshot.js';
import { blocksToServe, checkSyncedBlock } from './sync.js';
import {
  type BftEffect,
  type BftInput,
  type BftOptions,
  ConsensusInvariantError,
  invariant,
} from './types.js';

/** A transaction's canonical encoding in the codec's bare form (version byte, then the payload). */
function bareForm(encoded: Uint8Array): Uint8Array {
  const out = new Uint8Array(encoded.length + 1);
  out[0] = CODEC_VERSION;
  out.set(encoded, 1);
  return out;
}

/** How often peers are pinged for the round trip, and the largest sample believed. */
const RTT_PROBE_MS = 2000;
const RTT_SAMPLE_MAX_MS = 60_000;

/** Bytes of blocks in one sync answer (well under the 4 MiB frame cap). */
const SYNC_ANSWER_BYTES = 2 * 1024 * 1024;
/**
 * A peer that claimed to be ahead and then answered a sync request with nothing (or not at all) is not
 * asked again for this long: an unverifiable tip claim (`Tip{height: 1000000}`) cannot keep block sync
 * pinned to a peer that has nothing to give. Bounded by the peers remembered.
 */
const SYNC_COOLDOWN_MS = 30_000;
const SYNC_COOLDOWN_PEERS_MAX = 1024;

export class BftEngine implements ConsensusEngine {
  readonly mode = 'bft' as const;
  readonly core: BftCore;
  private running = false;
  private tail: Promise<void> = Promise.resolve();
  private timer: Timer | undefined;
  private executed = new Map<string, ExecutedBlock>();
  private taken: QueuedTransaction[] = [];
  private takenView = -1;
  private lastBuildMs = Number.NEGATIVE_INFINITY;
  private gossip: Uint8Array[] = [];
  private gossipTimer: Timer | undefined;
  private syncing: { peer: string; timer: Timer } | undefined;
  private readonly syncCooldown = new Map<string, number>();
  private rttTimer: Timer | undefined;
  private rttMs: number | undefined;
  /** The last reading of the monotonic clock (it never runs backwards). */
  private lastNowMs = Number.NEGATIVE_INFINITY;
  /** Wakes the core when the earliest timed due work falls due, so an idle chain makes the block that runs it. */
  private readonly dueWake: DueWake;
  readonly recent: CommitCertificate[] = [];
  /** Validator sets by the first height they apply to (bounded: the routes page through it). */
  readonly history: { height: number; set: ValidatorSet }[] = [];
  private readonly averages = new PhaseAverages();
  private readonly waiters: { height: number; resolve: () => void }[] = [];
  readonly counters = {
    commits: 0,
    synced: 0,
    syncRefused: 0,
    gossipIn: 0,
    gossipOut: 0,
    evidence: 0,
    /** Sync requests from a height above this peer's tip + 1 (it has nothing there): not answered. */
    syncFar: 0,
  };

  constructor(
    private readonly host: BftHost,
    private readonly transport: BftTransport,
    private readonly safety: SafetyStore,
    private readonly o: BftOptions & BftDriverOptions & { decodeLimits: DecodeLimits },
  ) {
    // Batches must fit what a peer's decoder accepts (messages.ts), or every peer drops our messages.
    invariant(
      o.gossipBatchMax >= 1 && o.gossipBatchMax <= GOSSIP_TXS_MAX,
      `gossip batch of ${o.gossipBatchMax} outside 1..${GOSSIP_TXS_MAX}`,
    );
    invariant(
      o.syncBatchBlocks >= 1 && o.syncBatchBlocks <= SYNC_BLOCKS_MAX,
      `sync batch of ${o.syncBatchBlocks} outside 1..${SYNC_BLOCKS_MAX}`,
    );
    invariant(o.minIntervalMs >= 0 && o.recentCertificatesMax >= 0, 'negative block interval or history');
    this.core = new BftCore(o);
    this.dueWake = new DueWake(host, () => this.notifyWork());
  }

  /** Loads the safety state and starts the core at the height after the tip. */
  async open(): Promise<void> {
    invariant(!this.running, 'the engine is opened once');
    const safety = await this.safety.load();
    this.running = true;
    const roster = this.host.validatorSet();
    this.noteRoster(this.host.height() + 1, roster);
    this.input({
      kind: 'Start',
      height: this.host.height() + 1,
      roster,
      ...(safety === undefined ? {} : { safety }),
      nowMs: this.now(),
      pending: this.hasWork(),
    });
    // The core decides the height after the committed tip.
    invariant(
      !this.running || this.core.report().height === this.host.height() + 1,
      `the core started at height ${this.core.report().height} on tip ${this.host.height()}`,
    );
    this.probeRtt();
    this.dueWake.arm();
  }

  /** Transactions wait, or due work is due (an empty block runs it). */
  private hasWork(): boolean {
    return this.host.queueDepth() > 0 || this.dueWake.due();
  }

  /** Pings every peer each RTT_PROBE_MS; the answers give the round trip the pacemaker's floor uses. */
  private probeRtt(): void {
    if (!this.running) return;
    this.transport.broadcast(
      encodePeerMessage({ kind: 'Ping', sentAtMs: Math.max(0, Math.floor(this.now())) }),
    );
    this.rttTimer = this.host.clock.setTimeout(() => this.probeRtt(), RTT_PROBE_MS);
  }

  private rttSample(ms: number): void {
    if (!(ms >= 0 && ms <= RTT_SAMPLE_MAX_MS)) return; // a forged or absurd echo
    // Exponential moving average with weight 1/8 over every peer's answers.
    this.rttMs = this.rttMs === undefined ? ms : this.rttMs + (ms - this.rttMs) / 8;
    invariant(this.rttMs >= 0 && this.rttMs <= RTT_SAMPLE_MAX_MS, `round trip average ${this.rttMs} ms`);
    this.input({ kind: 'Rtt', ms: Math.round(this.rttMs) });
  }

  start(): void {
    // `open` starts the core; nothing more to do (kept for the ConsensusEngine contract).
  }

  async stop(): Promise<void> {
    this.running = false;
    this.timer?.cancel();
    this.gossipTimer?.cancel();
    this.rttTimer?.cancel();
    this.dueWake.cancel();
    this.syncing?.timer.cancel();
    await this.tail;
  }

  private now(): number {
    const ms = this.host.clock.monotonicMs();
    invariant(ms >= this.lastNowMs, `the monotonic clock went from ${this.lastNowMs} to ${ms} ms`);
    this.lastNowMs = ms;
    return ms;
  }

  // ---- inputs -------------------------------------------------------------------------------------

  private input(i: BftInput): void {
    if (!this.running) return;
    let effects: BftEffect[];
    try {
      effects = this.core.step(i);
      assertVotesPersisted(effects);
      // A vote is only for a block this driver executed (built, or re-executed as valid) at this height.
      for (const e of effects)
        if ((e.kind === 'Send' || e.kind === 'Broadcast') && e.msg.kind === 'Vote')
          invariant(
            this.executed.has(toHex(e.msg.blockHash)),
            `a ${e.msg.phase} vote in view ${e.msg.view} for a block the driver never executed`,
          );
    } catch (e) {
      this.fail(e);
      return;
    }
    for (const e of effects) this.enqueue(() => this.run(e));
  }

  private enqueue(task: () => Promise<void> | void): void {
    this.tail = this.tail.then(async () => {
      if (!this.running) return;
      try {
        await task();
      } catch (e) {
        this.fail(e);
      }
    });
  }

  private fail(e: unknown): void {
    if (!this.running) return;
    this.running = false;
    this.timer?.cancel();
    this.o.onFatal(e);
  }

  notifyWork(): void {
    this.input({ kind: 'Work', pending: this.hasWork(), nowMs: this.now() });
  }

  /** A transaction admitted from a client: gossip it (batched on the next loop turn). */
  admitted(q: QueuedTransaction, source: string | undefined): void {
    if (source?.startsWith('peer:') || !this.running) return;
    // The canonical payload; the receiver submits it in the codec's bare form (`bareForm`).
    this.gossip.push(q.encoded ?? encode(SignedTransactionCodec, q.tx));
    if (this.gossip.length >= this.o.gossipBatchMax) this.flushGossip();
    else this.gossipTimer ??= this.host.clock.setTimeout(() => this.flushGossip(), 0);
    // A full batch goes out at once: what waits is always less than one batch.
    invariant(
      this.gossip.length < this.o.gossipBatchMax,
      `${this.gossip.length} transactions wait for gossip`,
    );
  }

  private flushGossip(): void {
    this.gossipTimer?.cancel();
    this.gossipTimer = undefined;
    if (this.gossip.length === 0) return;
    const txs = this.gossip;
    invariant(txs.length <= GOSSIP_TXS_MAX, `a gossip message of ${txs.length} transactions`);
    this.gossip = [];
    this.counters.gossipOut += txs.length;
    this.transport.broadcast(encodePeerMessage({ kind: 'Txs', txs }));
  }

  peerConnected(peer: string): void {
    this.transport.send(peer, encodePeerMessage({ kind: 'Tip', height: this.host.height() }));
  }

  /** Bytes from a peer (the transport's handler). */
  onMessage(from: string, bytes: Uint8Array): void {
    if (!this.running) return;
    const m = decodePeerMessage(bytes, this.o.decodeLimits);
    if (m === undefined) {
      this.transport.reportGarbage(from);
      return;
    }
    const core = toCoreMessage(m);
    if (core !== undefined) {
      this.input({ kind: 'Message', from, msg: core, nowMs: this.now() });
      return;
    }
    this.driverMessage(from, m);
  }

  private driverMessage(from: string, m: PeerMessage): void {
    switch (m.kind) {
      case 'Txs':
        this.counters.gossipIn += m.txs.length;
        for (const tx of m.txs) void this.host.submit(bareForm(tx), `peer:${from}`);
        return;
      case 'Tip':
        if (m.height > this.host.height()) this.behind(from, m.height);
        // A peer behind us (it says so on view timeouts): tell it our tip so it syncs.
        else if (m.height < this.host.height())
          this.transport.send(from, encodePeerMessage({ kind: 'Tip', height: this.host.height() }));
        return;
      case 'Ping':
        this.transport.send(from, encodePeerMessage({ kind: 'Pong', sentAtMs: m.sentAtMs }));
        return;
      case 'Pong':
        this.rttSample(this.now() - m.sentAtMs);
        return;
      case 'SyncRequest':
        if (m.from > this.host.height() + 1) {
          this.counters.syncFar++;
          return;
        }
        this.enqueue(async () => {
          const blocks = await blocksToServe(
            this.host,
            m.from,
            Math.min(m.max, this.o.syncBatchBlocks),
            SYNC_ANSWER_BYTES,
          );
          invariant(blocks.length <= SYNC_BLOCKS_MAX, `a sync answer of ${blocks.length} blocks`);
          this.transport.send(from, encodePeerMessage({ kind: 'SyncBlocks', blocks }));
        });
        return;
      case 'SyncBlocks':
        if (this.syncing?.peer === from) this.enqueue(() => this.applySynced(from, m.blocks));
        return;
      default:
        return;
    }
  }

  // ---- effects ------------------------------------------------------------------------------------

  private async run(e: BftEffect): Promise<void> {
    switch (e.kind) {
      case 'Send':
        this.transport.send(e.to, encodeCoreMessage(e.msg));
        return;
      case 'Broadcast':
        this.transport.broadcast(encodeCoreMessage(e.msg));
        return;
      case 'SetTimer':
        invariant(Number.isFinite(e.ms) && e.ms > 0, `a view timer of ${e.ms} ms`);
        // A timer for a later view: our proposal lost its view (timed out or joined past). Its
        // transactions go back to the queue, or no leader would ever propose them again.
        if (this.taken.length > 0 && e.view > this.takenView) {
          this.host.release(this.taken);
          this.taken = [];
        }
        this.timer?.cancel();
        this.timer = this.host.clock.setTimeout(
          () => {
            // A view that timed out may mean the others decided this height long ago and went quiet:
            // announce our tip, so a peer ahead answers with its own and block sync starts.
            this.transport.broadcast(encodePeerMessage({ kind: 'Tip', height: this.host.height() }));
            this.input({ kind: 'Timeout', height: e.height, view: e.view, nowMs: this.now() });
          },
          e.ms,
          { keepAlive: true },
        );
        return;
      case 'CancelTimer':
        this.timer?.cancel();
        this.timer = undefined;
        return;
      case 'Persist':
        await this.safety.save(e.safety);
        return;
      case 'Build':
        return this.build(e.height, e.view);
      case 'Execute':
        return this.execute(e.height, e.blockHash, e.block);
      case 'Commit':
        return this.commit(e.height, e.blockHash, e.certificate);
      case 'Behind':
        this.behind(e.peer, e.height);
        return;
      case 'Evidence':
        this.counters.evidence++;
        this.o.onEvidence(e.finding);
        return;
      default:
        unreachable(e, 'an effect the driver does not run');
    }
  }

  private async build(height: number, view: number): Promise<void> {
    const wait = this.o.minIntervalMs - (this.now() - this.lastBuildMs);
    if (wait > 0) await new Promise<void>((r) => this.host.clock.setTimeout(r, wait, { keepAlive: true }));
    if (this.host.height() + 1 !== height) return;
    this.lastBuildMs = this.now();
    const max = this.host.blockMaxTransactions();
    const txs = this.host.takeTransactions(max);
    invariant(txs.length <= max, `${txs.length} transactions taken for a block of at most ${max}`);
    if (txs.length === 0 && !this.dueWake.due()) {
      this.input({ kind: 'Built', height, view, nowMs: this.now() });
      return;
    }
    this.taken.push(...txs);
    this.takenView = view;
    const executed = this.host.execute(view, this.host.clock.nowMs(), txs);
    invariant(
      executed.header.height === height && executed.header.view === view,
      `built block ${executed.header.height}/${executed.header.view} for height ${height} view ${view}`,
    );
    const block = encodeProposedBlock(executed, executed.encodedTransactions);
    this.executed.set(toHex(executed.hash), executed);
    this.input({ kind: 'Built', height, view, blockHash: executed.hash, block, nowMs: this.now() });
  }

  private async execute(height: number, blockHash: Uint8Array, block: Uint8Array): Promise<void> {
    const known = this.executed.get(toHex(blockHash));
    if (known !== undefined) {
      // Executed blocks are forgotten at each commit: one known here is of the height being decided.
      invariant(
        known.header.height === height,
        `block of height ${known.header.height} known when executing height ${height}`,
      );
      this.input({
        kind: 'Executed',
        height,
        blockHash,
        headerView: known.header.view,
        ok: true,
        nowMs: this.now(),
      });
      return;
    }
    const v = await this.host.executeProposed(block);
    if (v.ok && !bytesEqual(v.executed.hash, blockHash)) {
      this.input({
        kind: 'Executed',
        height,
        blockHash,
        headerView: v.executed.header.view,
        ok: false,
        reason: 'proposal_hash_mismatch',
        nowMs: this.now(),
      });
      return;
    }
    if (v.ok) this.executed.set(toHex(blockHash), v.executed);
    this.input({
      kind: 'Executed',
      height,
      blockHash,
      headerView: v.ok ? v.executed.header.view : -1,
      ok: v.ok,
      ...(v.ok ? {} : { reason: v.reason }),
      nowMs: this.now(),
    });
  }

  private async commit(height: number, blockHash: Uint8Array, certificate: CommitCertificate): Promise<void> {
    if (height <= this.host.height()) return; // appended by block sync meanwhile
    const executed = this.executed.get(toHex(blockHash));
    if (executed === undefined)
      throw new ConsensusInvariantError(`commit of height ${height} without its executed block`);
    // The block extends the committed tip by one, and its certificate is a commit certificate of it.
    const tip = this.host.height();
    invariant(
      height === tip + 1 && executed.header.height === height,
      `commit of height ${height} (header ${executed.header.height}) on tip ${tip}`,
    );
    invariant(
      bytesEqual(executed.header.prevHash, this.host.tipHash()),
      `commit of height ${height}: its parent is not the committed tip`,
    );
    invariant(
      certificate.phase.kind === 'Commit' &&
        certificate.height === height &&
        bytesEqual(certificate.blockHash, blockHash) &&
        bytesEqual(executed.hash, blockHash),
      `commit of height ${height} with a certificate for another block`,
    );
    invariant(
      bytesEqual(certificate.validatorSetHash, this.host.validatorSet().hash),
      `commit of height ${height} with a certificate of another validator set`,
    );
    await this.host.commit(executed, certificate);
    invariant(this.host.height() === height, `committed ${height}, the tip is ${this.host.height()}`);
    this.counters.commits++;
    this.afterCommit(certificate);
  }

  private afterCommit(certificate: CommitCertificate): void {
    invariant(
      certificate.height === this.host.height(),
      `after a commit: certificate of height ${certificate.height}, tip ${this.host.height()}`,
    );
    this.executed.clear();
    if (this.taken.length > 0) {
      this.host.release(this.taken);
      this.taken = [];
    }
    this.recent.unshift(certificate);
    if (this.recent.length > this.o.recentCertificatesMax) this.recent.pop();
    const height = this.host.height();
    this.transport.broadcast(encodePeerMessage({ kind: 'Tip', height }));
    const roster = this.host.validatorSet();
    this.noteRoster(height + 1, roster);
    this.dueWake.arm();
    this.input({
      kind: 'Committed',
      height,
      roster,
      pending: this.hasWork(),
      nowMs: this.now(),
    });
    invariant(
      !this.running || this.core.report().height === height + 1,
      `after commit ${height} the core decides height ${this.core.report().height}`,
    );
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      const w = this.waiters[i]!;
      if (w.height <= height) {
        this.waiters.splice(i, 1);
        w.resolve();
      }
    }
  }

  private noteRoster(height: number, set: ValidatorSet): void {
    const last = this.history[this.history.length - 1];
    if (last !== undefined && bytesEqual(last.set.hash, set.hash)) return;
    invariant(last === undefined || last.height <= height, `validator set history goes back to ${height}`);
    this.history.push({ height, set });
    if (this.history.length > 1024) this.history.shift();
  }

  /** The validator-set history before this start (rebuilt from the committed state by the node). */
  seedRosterHistory(entries: { height: number; set: ValidatorSet }[]): void {
    for (let i = 1; i < entries.length; i++)
      invariant(entries[i - 1]!.height < entries[i]!.height, 'validator set history out of height order');
    this.history.splice(0, this.history.length, ...entries.slice(-1024));
  }

  /** Seeds the certificate history after a restart from the stored blocks' certificates (newest first). */
  restoreCertificates(certs: CommitCertificate[]): void {
    for (let i = 1; i < certs.length; i++)
      invariant(certs[i - 1]!.height > certs[i]!.height, 'restored certificates are not newest first');
    this.recent.splice(0, this.recent.length, ...certs.slice(0, this.o.recentCertificatesMax));
  }

  // ---- block sync ---------------------------------------------------------------------------------

  private behind(peer: string, height: number): void {
    if (this.syncing !== undefined || height <= this.host.height() || !this.running) return;
    if ((this.syncCooldown.get(peer) ?? Number.NEGATIVE_INFINITY) > this.now()) return;
    const timer = this.host.clock.setTimeout(() => {
      if (this.syncing?.peer !== peer) return;
      this.syncing = undefined; // no answer: the next hint retries, from another peer for a while
      this.coolDown(peer);
    }, 5000);
    this.syncing = { peer, timer };
    this.transport.send(
      peer,
      encodePeerMessage({ kind: 'SyncRequest', from: this.host.height() + 1, max: this.o.syncBatchBlocks }),
    );
  }

  private coolDown(peer: string): void {
    const now = this.now();
    for (const [p, until] of this.syncCooldown) if (until <= now) this.syncCooldown.delete(p);
    if (this.syncCooldown.size >= SYNC_COOLDOWN_PEERS_MAX) return;
    this.syncCooldown.set(peer, now + SYNC_COOLDOWN_MS);
    invariant(this.syncCooldown.size <= SYNC_COOLDOWN_PEERS_MAX, 'sync cooldowns over their bound');
  }

  private async applySynced(peer: string, blocks: Uint8Array[]): Promise<void> {
    this.syncing?.timer.cancel();
    this.syncing = undefined;
    if (blocks.length === 0) this.coolDown(peer);
    for (const bytes of blocks) {
      const v = checkSyncedBlock(this.host, this.o.crypto, bytes, this.o.decodeLimits);
      if (!v.ok) {
        if (v.reason !== 'sync_height') this.counters.syncRefused++;
        if (v.reason === 'sync_height') continue;
        return;
      }
      await this.host.appendSynced(v.block);
      invariant(
        this.host.height() === v.block.header.height,
        `synced block ${v.block.header.height} appended, the tip is ${this.host.height()}`,
      );
      this.counters.synced++;
      this.afterCommit(v.block.certificate);
    }
    if (blocks.length >= this.o.syncBatchBlocks) this.behind(peer, this.host.height() + 1);
  }

  // ---- reading ------------------------------------------------------------------------------------

  snapshot(): ConsensusSnapshot {
    const snap = snapshotOf(
      this.core,
      this.host.height(),
      this.recent,
      this.history,
      this.host.clock,
      this.averages,
      this.o.collectorsK,
    );
    // Behind a peer: a block sync request is out (it is cleared by the answer or after 5 s).
    snap.catchingUp = this.syncing !== undefined;
    return snap;
  }

  waitForHeight(height: number): Promise<void> {
    invariant(Number.isSafeInteger(height) && height >= 0, `waiting for height ${height}`);
    if (this.host.height() >= height) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ height, resolve }));
  }
}
