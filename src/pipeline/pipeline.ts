// The transaction pipeline (architecture.md "The path of a transaction"): admission → queue → (consensus
// engine) → execution → durable commit → events. It implements `ConsensusHost`, so any engine can drive it.

import type { CommitCertificate } from '../model/block.js';
import type { Event } from '../model/events.js';
import type { Clock } from '../util/clock.js';
import { toHex } from '../util/hex.js';
import {
  type AdmissionLimits,
  type AdmissionResult,
  admitTransaction,
  type SignatureCheck,
} from './admission.js';
import type { ConsensusHost, WorkListener } from './consensus-host.js';
import { EventBus } from './event-bus.js';
import type { ExecutedBlock } from './executed-block.js';
import type { Ledger } from './ledger.js';
import { type QueuedTransaction, type QueueLimits, TransactionQueue } from './queue.js';
import { RecentStatuses, type TrackedStatus } from './recent-statuses.js';

export interface PipelineOptions {
  chainId: string;
  clock: Clock;
  queue: QueueLimits;
  admission: AdmissionLimits;
  verify: SignatureCheck;
  eventHistoryMax: number;
  recentStatusesMax: number;
}

export type SubmitResult =
  | {
      ok: true;
      hash: Uint8Array;
      hashHex: string;
      depth: number;
      submittedAtMs: number;
      submittedAtHeight: number;
    }
  | Exclude<AdmissionResult, { ok: true }>
  | { ok: false; kind: 'duplicate'; code: 'already_enqueued' | 'already_committed'; hashHex: string }
  | {
      ok: false;
      kind: 'queue_full';
      code: 'queue_full' | 'account_queue_full';
      depth: number;
      capacity: number;
      hashHex: string;
    };

export interface PipelineCounters {
  txsApproved: number;
  txsRejected: number;
  txsExpired: number;
  blocks: number;
  blocksNonEmpty: number;
  lastCommitMs: number;
}

export class Pipeline implements ConsensusHost {
  readonly queue: TransactionQueue;
  readonly events: EventBus;
  readonly chainId: string;
  readonly clock: Clock;
  readonly counters: PipelineCounters = {
    txsApproved: 0,
    txsRejected: 0,
    txsExpired: 0,
    blocks: 0,
    blocksNonEmpty: 0,
    lastCommitMs: 0,
  };
  private readonly statuses: RecentStatuses;
  /**
   * Transactions taken from the queue by the engine and not yet committed. A duplicate arriving in that
   * window must be refused too, or it would be queued again and executed twice.
   */
  private readonly inFlight = new Set<string>();
  private engine: WorkListener | undefined;
  private limits: { version: number; value: AdmissionLimits } | undefined;
  private commitListeners: ((executed: ExecutedBlock, durationMs: number) => void)[] = [];

  constructor(
    readonly ledger: Ledger,
    private readonly opts: PipelineOptions,
  ) {
    this.chainId = opts.chainId;
    this.clock = opts.clock;
    this.queue = new TransactionQueue(opts.queue);
    this.events = new EventBus(opts.eventHistoryMax);
    this.statuses = new RecentStatuses(opts.recentStatusesMax);
    this.counters.blocks = ledger.height();
  }

  attach(engine: WorkListener): void {
    this.engine = engine;
  }

  onCommit(listener: (executed: ExecutedBlock, durationMs: number) => void): void {
    this.commitListeners.push(listener);
  }

  /** Admission with the chain's current parameters, then the queue. */
  async submit(body: Uint8Array): Promise<SubmitResult> {
    const now = this.clock.nowMs();
    const admitted = await admitTransaction(
      body,
      this.chainId,
      now,
      this.admissionLimits(),
      this.opts.verify,
    );
    if (!admitted.ok) return admitted;
    const { tx, hash, hashHex } = admitted;
    if (this.ledger.locate(hash, hashHex) !== undefined)
      return { ok: false, kind: 'duplicate', code: 'already_committed', hashHex };
    if (this.inFlight.has(hashHex))
      return { ok: false, kind: 'duplicate', code: 'already_enqueued', hashHex };
    const ttlExpiry =
      tx.payload.ttlMs === undefined
        ? Number.POSITIVE_INFINITY
        : tx.payload.creationTimeMs + tx.payload.ttlMs;
    const queued: QueuedTransaction = {
      tx,
      hash,
      hashHex,
      encodedBytes: admitted.encodedBytes,
      encoded: admitted.encoded,
      admittedAtMs: now,
      expiresAtMs: Math.min(ttlExpiry, now + this.opts.queue.expiryMs),
    };
    const pushed = this.queue.push(queued);
    if (!pushed.ok) {
      if (pushed.code === 'already_enqueued')
        return { ok: false, kind: 'duplicate', code: 'already_enqueued', hashHex };
      return {
        ok: false,
        kind: 'queue_full',
        code: pushed.code,
        depth: pushed.depth,
        capacity: this.queue.capacity,
        hashHex,
      };
    }
    this.statuses.set(hashHex, { status: 'Queued' });
    this.publish({ kind: 'Transaction', hash, status: { kind: 'Queued' } });
    this.engine?.notifyWork();
    return {
      ok: true,
      hash,
      hashHex,
      depth: pushed.depth,
      submittedAtMs: now,
      submittedAtHeight: this.ledger.height(),
    };
  }

  /**
   * The admission limits under the chain's current parameters. Parameters change only when a block
   * commits (which bumps the state's version), so the object is rebuilt once per block, not per call.
   */
  private admissionLimits(): AdmissionLimits {
    const state = this.ledger.state;
    if (this.limits?.version !== state.version) {
      const admission = this.opts.admission;
      this.limits = {
        version: state.version,
        value: {
          ...admission,
          maxClockDriftMs: state.limit('maxClockDriftMs'),
          instructionsMax: Math.min(admission.instructionsMax, state.limit('transactionMaxInstructions')),
          transactionBytesMax: Math.min(admission.transactionBytesMax, state.limit('transactionMaxBytes')),
        },
      };
    }
    return this.limits.value;
  }

  /** The latest known status of a transaction, from the queue, recent history or the committed index. */
  async status(hash: Uint8Array): Promise<TrackedStatus | undefined> {
    const loc = this.ledger.locate(hash);
    if (loc !== undefined) {
      const block = await this.ledger.block(loc.height);
      const result = block?.results[loc.index];
      if (result?.kind === 'Rejected')
        return { status: 'Rejected', reason: result.reason, blockHeight: loc.height };
      return { status: 'Committed', blockHeight: loc.height };
    }
    return this.statuses.get(toHex(hash));
  }

  sweepExpired(): void {
    this.announceExpired(this.queue.sweep(this.clock.nowMs()));
  }

  private announceExpired(expired: QueuedTransaction[]): void {
    for (const q of expired) {
      this.counters.txsExpired++;
      this.statuses.set(q.hashHex, { status: 'Expired' });
      this.publish({ kind: 'Transaction', hash: q.hash, status: { kind: 'Expired' } });
    }
  }

  private publish(e: Event): void {
    this.events.publish(e);
  }

  // ---- ConsensusHost ---------------------------------------------------------------------------

  height(): number {
    return this.ledger.height();
  }

  tipHash(): Uint8Array {
    return this.ledger.tipHash();
  }

  blockMaxTransactions(): number {
    return this.ledger.state.limit('blockMaxTransactions');
  }

  queueDepth(): number {
    return this.queue.depth;
  }

  takeTransactions(max: number): QueuedTransaction[] {
    const { ready, expired } = this.queue.take(max, this.clock.nowMs());
    this.announceExpired(expired);
    for (const q of ready) this.inFlight.add(q.hashHex);
    return ready;
  }

  execute(view: number, creationTimeMs: number, txs: QueuedTransaction[]): ExecutedBlock {
    return this.ledger.execute({
      view,
      creationTimeMs,
      transactions: txs.map((q) => q.tx),
      hashes: txs.map((q) => q.hash),
      hashHexes: txs.map((q) => q.hashHex),
      encoded: txs.map((q) => q.encoded),
    });
  }

  async commit(executed: ExecutedBlock, certificate: CommitCertificate): Promise<void> {
    const t0 = this.clock.monotonicMs();
    await this.ledger.commit(executed, certificate);
    const durationMs = this.clock.monotonicMs() - t0;
    const { height } = executed.header;
    this.counters.blocks = height;
    if (executed.transactions.length > 0) this.counters.blocksNonEmpty++;
    this.counters.lastCommitMs = durationMs;
    this.publish({ kind: 'Block', height, hash: executed.hash, status: { kind: 'Committed' } });
    for (let i = 0; i < executed.transactions.length; i++) {
      const hash = executed.hashes[i]!;
      const result = executed.results[i]!;
      const hashHex = executed.hashHexes[i]!;
      this.statuses.delete(hashHex);
      this.inFlight.delete(hashHex);
      if (result.kind === 'Committed') {
        this.counters.txsApproved++;
        this.publish({ kind: 'Transaction', hash, status: { kind: 'Committed' }, blockHeight: height });
        for (const data of executed.events[i]!)
          this.publish({ kind: 'Data', blockHeight: height, transactionHash: hash, data });
      } else {
        this.counters.txsRejected++;
        this.publish({
          kind: 'Transaction',
          hash,
          status: { kind: 'Rejected', reason: result.reason },
          blockHeight: height,
        });
      }
    }
    this.publish({ kind: 'Block', height, hash: executed.hash, status: { kind: 'Applied' } });
    for (const l of this.commitListeners) l(executed, durationMs);
  }

  abandon(txs: QueuedTransaction[], reason: string): void {
    for (const q of txs) {
      this.inFlight.delete(q.hashHex);
      this.statuses.set(q.hashHex, { status: 'Dropped', message: reason });
    }
  }
}
