// Single-peer consensus (docs/design/architecture.md): the one validator is always the leader. It produces
// a block as soon as transactions wait (no empty heartbeat blocks), at most `blockMaxTransactions` per
// block, and when timed due work falls due on an idle chain (an empty block at its time, due-wake.ts);
// while one block is being made durable the next ones accumulate, which
// groups many transactions per fsync. Each block gets a real commit certificate signed with the validator's
// BLS key, verifiable exactly like a multi-peer one.

import type { BlsKeyPair } from '../crypto/bls.js';
import type { CommitCertificate } from '../model/block.js';
import { assert } from '../util/assert.js';
import { bytesEqual, toHex } from '../util/hex.js';
import { signersBitmap, voteMessage } from './certificate.js';
import { DueWake } from './due-wake.js';
import type { ConsensusEngine, ConsensusHost, ConsensusSnapshot, PhaseTimings, QcSummary } from './engine.js';
import type { ValidatorSet } from './validator-set.js';

export interface SinglePeerOptions {
  signer: BlsKeyPair;
  peerId: string;
  validatorSet: ValidatorSet;
  /** Recent certificates kept for `/v1/consensus/commit-certificates` and checkpoints. */
  recentCertificatesMax: number;
  /** Least time between the starts of two blocks (`block.min_interval_ms`); 0 = back to back. */
  minIntervalMs: number;
  onFatal: (error: unknown) => void;
}

export class SinglePeerEngine implements ConsensusEngine {
  readonly mode = 'single-peer' as const;
  private running = false;
  private scheduled = false;
  private inFlight: Promise<void> | undefined;
  private lastBlockTimeMs = 0;
  private lastRoundStartMs = Number.NEGATIVE_INFINITY;
  private readonly recent: CommitCertificate[] = [];
  /** The summary of the last certificate, written once per certificate (snapshots are read per request). */
  private lastQc: { certificate: CommitCertificate; qc: QcSummary } | undefined;
  private lastPhases: PhaseTimings | undefined;
  private avgPhases: PhaseTimings | undefined;
  private roundStartedAtMs: number | undefined;
  private blocksProduced = 0;
  private phaseSamples = 0;
  private readonly heightWaiters: { height: number; resolve: () => void }[] = [];
  private readonly index: number;
  /** Wakes the engine when the earliest timed due work falls due (re-armed after every round). */
  private readonly dueWake: DueWake;

  constructor(
    private readonly host: ConsensusHost,
    private readonly opts: SinglePeerOptions,
  ) {
    // Config: a NaN interval would never let a block wait, a negative history would keep nothing.
    assert(
      opts.minIntervalMs >= 0 &&
        Number.isSafeInteger(opts.recentCertificatesMax) &&
        opts.recentCertificatesMax >= 0,
      `single-peer engine: interval ${opts.minIntervalMs} ms, ${opts.recentCertificatesMax} certificates kept`,
    );
    this.index = opts.validatorSet.indexOf(opts.peerId);
    this.dueWake = new DueWake(host, () => this.notifyWork());
    if (this.index < 0 || opts.validatorSet.size !== 1) {
      throw new Error('single-peer consensus needs a validator set of exactly this peer');
    }
  }

  start(): void {
    this.running = true;
    this.notifyWork();
    this.armDueTimer();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.dueWake.cancel();
    await this.inFlight;
  }

  notifyWork(): void {
    if (!this.running || this.scheduled || this.inFlight !== undefined) return;
    this.scheduled = true;
    // Through the injected clock (never setImmediate directly), so a simulated clock drives the engine.
    this.host.clock.setTimeout(
      () => {
        this.scheduled = false;
        if (this.inFlight === undefined)
          this.inFlight = this.produceWhileWork().finally(() => {
            this.inFlight = undefined;
            this.armDueTimer();
          });
      },
      0,
      { keepAlive: true }, // transactions are waiting
    );
  }

  private async produceWhileWork(): Promise<void> {
    while (this.running && (this.host.queueDepth() > 0 || this.dueWorkDue())) {
      // With `minIntervalMs`, transactions gather until that long after the previous block started
      // (fewer, fuller blocks); 0 produces as soon as anything waits.
      const waitMs = this.opts.minIntervalMs - (this.host.clock.monotonicMs() - this.lastRoundStartMs);
      assert(waitMs <= this.opts.minIntervalMs, `a wait of ${waitMs} ms: the monotonic clock ran backwards`);
      if (waitMs > 0) {
        await new Promise<void>((r) => {
          this.host.clock.setTimeout(r, waitMs, { keepAlive: true }); // transactions are waiting
        });
        if (!this.running) return;
      }
      const max = this.host.blockMaxTransactions();
      const txs = this.host.takeTransactions(max);
      assert(txs.length <= max, `${txs.length} transactions taken for a block of at most ${max}`);
      if (txs.length === 0 && !this.dueWorkDue()) continue; // everything taken had expired
      try {
        await this.produce(txs);
      } catch (e) {
        this.running = false;
        this.host.abandon(txs, `block production failed: ${(e as Error).message}`);
        this.opts.onFatal(e);
        return;
      }
      // Let admissions and reads run between blocks.
      await new Promise<void>((r) => {
        this.host.clock.setTimeout(r, 0, { keepAlive: true });
      });
    }
  }

  /** Whether timed due work is due by now (an empty block runs it). */
  private dueWorkDue(): boolean {
    return this.dueWake.due();
  }

  private armDueTimer(): void {
    if (this.running) this.dueWake.arm();
  }

  private async produce(txs: Parameters<ConsensusHost['execute']>[2]): Promise<void> {
    const clock = this.host.clock;
    const t0 = clock.monotonicMs();
    this.lastRoundStartMs = t0;
    this.roundStartedAtMs = clock.nowMs();
    const blockTime = Math.max(clock.nowMs(), this.lastBlockTimeMs);
    const tip = this.host.height();
    const executed = this.host.execute(0, blockTime, txs);
    // The block extends the committed tip by one, at a time not before the previous block's.
    assert(
      executed.header.height === tip + 1 && bytesEqual(executed.header.prevHash, this.host.tipHash()),
      `block ${executed.header.height} built on tip ${tip} does not extend it`,
    );
    assert(blockTime >= this.lastBlockTimeMs, `block time ${blockTime} before ${this.lastBlockTimeMs}`);
    const t1 = clock.monotonicMs();
    const certificate = this.certify(executed.header.height, executed.hash);
    const t2 = clock.monotonicMs();
    await this.host.commit(executed, certificate);
    assert(this.host.height() === tip + 1, `committed height ${tip + 1}, the tip is ${this.host.height()}`);
    const t3 = clock.monotonicMs();
    this.lastBlockTimeMs = blockTime;
    this.blocksProduced++;
    this.recordPhases({ proposeMs: t1 - t0, collectVotesMs: t2 - t1, commitMs: t3 - t2, totalMs: t3 - t0 });
    this.recent.unshift(certificate);
    if (this.recent.length > this.opts.recentCertificatesMax) this.recent.pop();
    this.roundStartedAtMs = undefined;
    this.resolveWaiters();
  }

  /** Signs the commit vote for a block and wraps it as a certificate (quorum of one). */
  certify(height: number, blockHash: Uint8Array): CommitCertificate {
    assert(Number.isSafeInteger(height) && height >= 1, `a certificate for height ${height}`);
    assert(blockHash.length === 32, `a certificate for a ${blockHash.length}-byte block hash`);
    const subject = {
      phase: { kind: 'Commit' as const },
      height,
      view: 0,
      epoch: 0,
      blockHash,
      validatorSetHash: this.opts.validatorSet.hash,
    };
    const vote = this.opts.signer.sign(voteMessage(this.host.chainId, subject));
    // A quorum of one: the aggregate of one signature is that signature (a compressed G2 point has one
    // encoding), so our own fresh vote goes in as it is, without aggregation's decoding, subgroup check
    // and re-encoding (`aggregateCertificate` gives the same certificate; single-peer.test.ts checks).
    return {
      ...subject,
      signers: signersBitmap([this.index], this.opts.validatorSet.size),
      signature: vote,
    };
  }

  private recordPhases(p: PhaseTimings): void {
    // Measured on the monotonic clock: no phase takes negative time.
    assert(
      p.proposeMs >= 0 && p.collectVotesMs >= 0 && p.commitMs >= 0 && p.totalMs >= 0,
      `negative phase time: ${JSON.stringify(p)}`,
    );
    this.lastPhases = p;
    this.phaseSamples++;
    const a = this.avgPhases;
    // Exponential moving average with weight 1/8, the same smoothing for every phase.
    const ema = (old: number, x: number) => old + (x - old) / 8;
    this.avgPhases =
      a === undefined
        ? { ...p }
        : {
            proposeMs: ema(a.proposeMs, p.proposeMs),
            collectVotesMs: ema(a.collectVotesMs, p.collectVotesMs),
            commitMs: ema(a.commitMs, p.commitMs),
            totalMs: ema(a.totalMs, p.totalMs),
          };
  }

  /** Seeds the certificate history after a restart from the stored blocks' certificates. */
  restoreCertificates(certs: CommitCertificate[]): void {
    for (let i = 1; i < certs.length; i++)
      assert(certs[i - 1]!.height > certs[i]!.height, 'restored certificates are not newest first');
    this.recent.splice(0, this.recent.length, ...certs.slice(0, this.opts.recentCertificatesMax));
  }

  waitForHeight(height: number): Promise<void> {
    if (this.host.height() >= height) return Promise.resolve();
    return new Promise((resolve) => this.heightWaiters.push({ height, resolve }));
  }

  private resolveWaiters(): void {
    const h = this.host.height();
    for (let i = this.heightWaiters.length - 1; i >= 0; i--) {
      const w = this.heightWaiters[i]!;
      if (w.height <= h) {
        this.heightWaiters.splice(i, 1);
        w.resolve();
      }
    }
  }

  snapshot(): ConsensusSnapshot {
    const last = this.recent[0];
    assert(this.recent.length <= this.opts.recentCertificatesMax, 'certificate history over its bound');
    if (last !== undefined && this.lastQc?.certificate !== last) {
      this.lastQc = {
        certificate: last,
        qc: { height: last.height, view: last.view, subjectBlockHash: toHex(last.blockHash) },
      };
    }
    const qc: QcSummary | undefined = last && this.lastQc?.qc;
    return {
      mode: 'single-peer',
      height: this.host.height(),
      view: 0,
      epoch: 0,
      leaderIndex: this.index,
      validatorSet: this.opts.validatorSet,
      validatorSetHistory: [{ height: 1, set: this.opts.validatorSet }],
      highestQc: qc,
      lockedQc: qc,
      lastCertificate: last,
      recentCertificates: [...this.recent],
      viewChanges: 0,
      viewChangeCauses: {},
      lastPhases: this.lastPhases,
      averagePhases: this.avgPhases,
      phaseSamples: this.phaseSamples,
      catchingUp: false,
      roundStartedAtMs: this.roundStartedAtMs,
      blocksProduced: this.blocksProduced,
    };
  }
}
