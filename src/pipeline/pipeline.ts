// The transaction pipeline (docs/design/paths.md): admission → queue → (consensus
// engine) → execution → durable commit → events. It implements `ConsensusHost`, so any engine can drive it.

import type { DecodeLimits } from '../codec/limits.js';
import { hash as hashBytes } from '../crypto/hash.js';
import type { Block, CommitCertificate } from '../model/block.js';
import { BlockExecution } from '../state/executor.js';
import { nextDueWorkMs } from '../state/module-host.js';
import { claimsOf, type ProofClaim, ProofVerdictCache, proofCount } from '../state/proof-verdicts.js';
import type { WorldState } from '../state/world-state.js';
import { assert } from '../util/assert.js';
import type { Clock } from '../util/clock.js';
import { toHex } from '../util/hex.js';
import {
  type AdmissionLimits,
  type AdmissionResult,
  type Admitted,
  admitDecodedTransactions,
  admitTransaction,
  admitTransactions,
  type DecodedTransaction,
  decodeSignedTransaction,
  type SignatureBatchCheck,
  type SignatureCheck,
} from './admission.js';
import { blockWeightBudget } from './block-weight.js';
import { ChainAdmission } from './chain-admission.js';
import { assertCommitExtendsTip, assertTipIs } from './commit-checks.js';
import { committedBlockEvents } from './commit-events.js';
import type { ConsensusHost, ProposalVerdict, WorkListener } from './consensus-host.js';
import { EventBus } from './event-bus.js';
import type { ExecutedBlock } from './executed-block.js';
import type { Ledger } from './ledger.js';
import { checkProposal, executeSynced } from './proposal-check.js';
import { type QueuedTransaction, type QueueFullCode, type QueueLimits, TransactionQueue } from './queue.js';
import { RecentStatuses, type TrackedStatus } from './recent-statuses.js';
import { VerifiedTransactions } from './verified-cache.js';

export interface PipelineOptions<Roster = unknown> {
  chainId: string;
  clock: Clock;
  queue: QueueLimits;
  admission: AdmissionLimits;
  verify: SignatureCheck;
  /** Many signatures at once (`admitMany`); absent, `verify` is called for each (gathered by the pool). */
  verifyMany?: SignatureBatchCheck;
  eventHistoryMax: number;
  recentStatusesMax: number;
  /** Hashes of transactions whose signature was verified, kept to skip re-verifying proposals. */
  verifiedCacheMax?: number;
  /**
   * Verifies Groth16 claims off the event loop (the node: the verification pool's workers, src/zk/
   * proof-pool.ts), one verdict per claim in order. Absent, admission verifies no proof and execution
   * verifies each itself.
   */
  verifyProofs?: (claims: readonly ProofClaim[]) => Promise<boolean[]>;
  /** Bound of the proof verdict cache (state/proof-verdicts.ts `PROOF_VERDICT_CACHE_MAX`). */
  proofVerdictCacheMax?: number;
  /**
   * The validator set for the next height from the committed state (`ConsensusHost.validatorSet`).
   * Membership changes (Register/UnregisterPeer) plug in here; absent, `validatorSet()` throws.
   */
  validatorSetOf?: (state: WorldState) => Roster;
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
      code: QueueFullCode;
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

export class Pipeline<Roster = unknown> implements ConsensusHost<Roster> {
  readonly queue: TransactionQueue;
  readonly events: EventBus;
  readonly chainId: string;
  readonly clock: Clock;
  /** Submissions refused for a full queue before their signature was verified (fullBeforeSignature). */
  refusedBeforeSignature = 0;
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
  private readonly verified: VerifiedTransactions;
  /**
   * Verdicts of the proofs admitted transactions carry, computed in the pool at admission; execution
   * reads them (state/proof-verdicts.ts) and computes the rest itself.
   */
  readonly proofVerdicts: ProofVerdictCache;
  private engine: WorkListener | undefined;
  private readonly admission: ChainAdmission;
  private commitListeners: ((executed: ExecutedBlock, durationMs: number) => void)[] = [];
  private readonly admittedListeners: ((q: QueuedTransaction, source: string | undefined) => void)[] = [];

  constructor(
    readonly ledger: Ledger,
    private readonly opts: PipelineOptions<Roster>,
  ) {
    this.verified = new VerifiedTransactions(opts.verifiedCacheMax);
    this.proofVerdicts = new ProofVerdictCache(opts.proofVerdictCacheMax);
    this.admission = new ChainAdmission(ledger, opts.admission);
    this.chainId = opts.chainId;
    this.clock = opts.clock;
    this.queue = new TransactionQueue(opts.queue);
    this.events = new EventBus(opts.eventHistoryMax, ledger.height());
    this.statuses = new RecentStatuses(opts.recentStatusesMax);
    this.counters.blocks = ledger.height();
    // Counted from the chain, so a restart keeps them (chain-counters.ts); txsExpired is this process's.
    const chain = ledger.counters();
    this.counters.blocksNonEmpty = chain.blocksNonEmpty;
    this.counters.txsApproved = chain.txsApproved;
    this.counters.txsRejected = chain.txsRejected;
    // `enqueue` relies on it: a queued transaction always has at least a millisecond to live.
    assert(
      Number.isSafeInteger(opts.queue.expiryMs) && opts.queue.expiryMs >= 1,
      `pipeline: queue expiry of ${opts.queue.expiryMs} ms`,
    );
  }

  attach(engine: WorkListener): void {
    // One engine drives a pipeline: a second would take transactions the first has in flight.
    assert(
      this.engine === undefined || this.engine === engine,
      'pipeline: a second consensus engine attached',
    );
    this.engine = engine;
  }

  /**
   * Called for every transaction admitted into the queue, with the `source` it was submitted under (the
   * BFT engine gossips those that did not come from a peer).
   */
  onAdmitted(listener: (q: QueuedTransaction, source: string | undefined) => void): void {
    this.admittedListeners.push(listener);
  }

  onCommit(listener: (executed: ExecutedBlock, durationMs: number) => void): void {
    this.commitListeners.push(listener);
  }

  /**
   * Admission with the chain's current parameters, then the queue. `source` is the submitter's network
   * address (the gateway's client key), counted against `queue.per_source_max`; in-process submitters
   * (a module's node-local service) pass none.
   */
  async submit(body: Uint8Array, source?: string): Promise<SubmitResult> {
    const now = this.clock.nowMs();
    const limits = this.admission.limits();
    const full = this.fullBeforeSignature(body, limits.decode);
    if (full !== undefined) return full;
    const admitted = await admitTransaction(body, this.chainId, now, limits, this.opts.verify);
    // Admission answers with the hash of the body it admitted: the one every later step is keyed by.
    assert(!admitted.ok || admitted.hashHex.length === 64, 'pipeline: admitted without a transaction hash');
    if (!admitted.ok) return admitted;
    await this.verifyProofsOf(admitted);
    return this.enqueue(admitted, now, source);
  }

  /**
   * `submit` for many signed transactions (framed or bare) at once: every one keeps every check, their
   * signatures are verified together (`verifyMany`), and each gets its own result at its own index, in
   * order. They are queued in order, so a later copy of an earlier one is `already_enqueued`, and a
   * refused one never affects the others. The caller bounds the count (the gateway's batch limits).
   */
  async admitMany(bodies: readonly Uint8Array[], source?: string): Promise<SubmitResult[]> {
    const now = this.clock.nowMs();
    const limits = this.admission.limits();
    const admitted = await admitTransactions(bodies, this.chainId, now, limits, this.verifyMany);
    // One result per body, at its index.
    assert(admitted.length === bodies.length, `pipeline: ${admitted.length} results for ${bodies.length}`);
    await Promise.all(admitted.map((a) => (a.ok ? this.verifyProofsOf(a) : undefined)));
    return admitted.map((a) => (a.ok ? this.enqueue(a, now, source) : a));
  }

  /** `admitMany` for the items of a decoded SignedTransactionBatch (batch.ts `decodeTransactionBatch`). */
  async admitDecoded(items: readonly DecodedTransaction[], source?: string): Promise<SubmitResult[]> {
    const now = this.clock.nowMs();
    const limits = this.admission.limits();
    const admitted = await admitDecodedTransactions(items, this.chainId, now, limits, this.verifyMany);
    assert(admitted.length === items.length, `pipeline: ${admitted.length} results for ${items.length}`);
    await Promise.all(admitted.map((a) => (a.ok ? this.verifyProofsOf(a) : undefined)));
    return admitted.map((a) => (a.ok ? this.enqueue(a, now, source) : a));
  }

  /**
   * A queue at capacity refuses a new transaction before its signature is verified (the costliest check:
   * under overload the verify pool's time went to transactions the queue then refused). Decoding and
   * hashing stay, so the refusal still names the transaction and a duplicate is still answered as one (by
   * the full path: undefined); a body that does not decode also takes the full path, for its own error.
   */
  private fullBeforeSignature(body: Uint8Array, limits: DecodeLimits): SubmitResult | undefined {
    if (this.queue.depth < this.queue.capacity) return undefined;
    const d = decodeSignedTransaction(body, limits);
    if (!d.ok) return undefined;
    const hash = hashBytes(d.txBytes);
    const hashHex = toHex(hash);
    if (
      this.queue.has(hashHex) ||
      this.inFlight.has(hashHex) ||
      this.ledger.locate(hash, hashHex) !== undefined
    )
      return undefined;
    // Nothing was queued: the queue is still at capacity, and the refusal names a 32-byte hash.
    assert(
      this.queue.depth >= this.queue.capacity && hashHex.length === 64,
      'pipeline: a refusal of a queue not full',
    );
    this.refusedBeforeSignature++;
    return {
      ok: false,
      kind: 'queue_full',
      code: 'queue_full',
      depth: this.queue.depth,
      capacity: this.queue.capacity,
      hashHex,
    };
  }

  /**
   * The proofs of an admitted transaction, verified in the pool and their verdicts cached. Which
   * claims (key, public inputs, proof) its execution will check depends on the state (a call's roster
   * root, the pool's fee), so the transaction runs against the committed state on scratch views that
   * are thrown away, once per proof it carries, each run stopping at the next claim (`claimsOf`: no run
   * pays for what follows its last proof, such as a note's tree append). Never refuses: a failing proof's verdict is cached and execution decides, since only
   * execution knows the state the transaction meets. A pool failure leaves the verdicts uncached.
   */
  private async verifyProofsOf(admitted: Admitted): Promise<void> {
    const verify = this.opts.verifyProofs;
    const height = this.ledger.height() + 1;
    if (verify === undefined || height === 1) return;
    const carried = proofCount(admitted.tx.payload.instructions);
    if (carried === 0) return;
    const context = { height, blockTimeMs: this.clock.nowMs(), chainId: this.chainId, genesis: false };
    const claims = claimsOf(carried, (port) =>
      new BlockExecution(this.ledger.state, context, { proofs: port }).apply(admitted.tx, admitted.hash),
    ).filter((c) => !this.proofVerdicts.has(c));
    if (claims.length === 0) return;
    let verdicts: boolean[];
    try {
      verdicts = await verify(claims);
    } catch {
      return; // a worker that died: execution verifies these itself
    }
    assert(
      verdicts.length === claims.length,
      `pipeline: ${verdicts.length} verdicts for ${claims.length} proofs`,
    );
    for (let i = 0; i < claims.length; i++) this.proofVerdicts.add(claims[i]!, verdicts[i] === true);
  }

  private readonly verifyMany: SignatureBatchCheck = (items) =>
    this.opts.verifyMany?.(items) ??
    Promise.all(items.map((i) => this.opts.verify(i.publicKey, i.message, i.signature)));

  /** After admission: the duplicate checks, the authority, then the queue and its announcements. */
  private enqueue(admitted: Admitted, now: number, source: string | undefined): SubmitResult {
    const { tx, hash, hashHex } = admitted;
    if (this.ledger.locate(hash, hashHex) !== undefined)
      return { ok: false, kind: 'duplicate', code: 'already_committed', hashHex };
    this.verified.add(hashHex); // admission verified the signature
    if (this.inFlight.has(hashHex))
      return { ok: false, kind: 'duplicate', code: 'already_enqueued', hashHex };
    const unknown = this.admission.unknownAuthority(tx.payload.authority, hashHex);
    if (unknown !== undefined) return unknown;
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
      weight: admitted.weight,
      ...(source === undefined ? {} : { source }),
      expiresAtMs: Math.min(ttlExpiry, now + this.opts.queue.expiryMs),
    };
    // Admission refused a transaction already expired at `now`, and the queue's expiry is at least 1 ms.
    assert(queued.expiresAtMs > now, `pipeline: ${hashHex} queued already expired`);
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
    // Queued and in flight are disjoint: a transaction in both would be proposed twice.
    assert(
      this.queue.has(hashHex) && !this.inFlight.has(hashHex),
      `pipeline: ${hashHex} queued while in flight`,
    );
    this.statuses.set(hashHex, { status: 'Queued' });
    this.events.publishPending({ kind: 'Transaction', hash, status: { kind: 'Queued' } });
    for (const l of this.admittedListeners) l(queued, source);
    this.engine?.notifyWork();
    // The engine's nudge may have taken it (now in flight); nothing between drops it unannounced.
    assert(
      this.queue.has(hashHex) || this.inFlight.has(hashHex),
      `pipeline: ${hashHex} admitted, then neither queued nor in flight`,
    );
    return {
      ok: true,
      hash,
      hashHex,
      depth: pushed.depth,
      submittedAtMs: now,
      submittedAtHeight: this.ledger.height(),
    };
  }

  /** The latest known status of a transaction, from the queue, recent history or the committed index. */
  async status(hash: Uint8Array): Promise<TrackedStatus | undefined> {
    const loc = this.ledger.locate(hash);
    if (loc !== undefined) {
      const block = await this.ledger.block(loc.height);
      // The index points into a committed block, at one of its transactions.
      assert(
        block !== undefined && loc.index < block.results.length,
        `pipeline: ${toHex(hash)} indexed at ${loc.height}/${loc.index} outside its block`,
      );
      const result = block.results[loc.index];
      if (result?.kind === 'Rejected')
        return { status: 'Rejected', reason: result.reason, blockHeight: loc.height };
      return { status: 'Committed', blockHeight: loc.height };
    }
    return this.statuses.get(toHex(hash));
  }

  sweepExpired(): void {
    const now = this.clock.nowMs();
    const expired = this.queue.sweep(now);
    // The sweep takes only what expired by now (a live transaction is never announced expired).
    for (const q of expired) assert(q.expiresAtMs <= now, `pipeline: ${q.hashHex} swept before it expired`);
    this.announceExpired(expired);
  }

  private announceExpired(expired: QueuedTransaction[]): void {
    for (const q of expired) {
      assert(!this.queue.has(q.hashHex), `pipeline: ${q.hashHex} announced expired while still queued`);
      this.counters.txsExpired++;
      this.statuses.set(q.hashHex, { status: 'Expired' });
      this.events.publishPending({ kind: 'Transaction', hash: q.hash, status: { kind: 'Expired' } });
    }
  }

  // ---- ConsensusHost ---------------------------------------------------------------------------

  height(): number {
    const height = this.ledger.height();
    // The chain only grows: nothing the engine was told committed is ever undone.
    assert(
      height >= this.counters.blocks,
      `pipeline: height ${height} below the committed ${this.counters.blocks}`,
    );
    return height;
  }

  tipHash(): Uint8Array {
    const tip = this.ledger.tipHash();
    assert(tip.length === 32, `pipeline: a ${tip.length}-byte tip hash`);
    return tip;
  }

  /** The admission limits in force now: the node's bounds lowered by the chain's parameters (GET /v1/policy). */
  admissionLimits(): AdmissionLimits {
    const limits = this.admission.limits();
    assert(limits.instructionsMax >= 1 && limits.transactionBytesMax >= 1, 'pipeline: admission limits');
    return limits;
  }

  blockMaxTransactions(): number {
    const max = this.ledger.state.limit('blockMaxTransactions');
    // A chain parameter (a varuint) the engines pass to `takeTransactions` as its bound.
    assert(Number.isSafeInteger(max) && max >= 0, `pipeline: BlockMaxTransactions ${max}`);
    return max;
  }

  queueDepth(): number {
    return this.queue.depth;
  }

  dueWorkAtMs(): number | undefined {
    const at = nextDueWorkMs(this.ledger.state);
    // A block time (the engines arm a wake for it).
    assert(at === undefined || (Number.isSafeInteger(at) && at >= 0), `pipeline: due work at ${at}`);
    return at;
  }

  lastBlockTimeMs(): number | undefined {
    const height = this.ledger.height();
    const time = this.ledger.blockSync(height)?.header.creationTimeMs;
    // Every committed height has its block (only before genesis is there none).
    assert(height === 0 || time !== undefined, `pipeline: no block at the committed height ${height}`);
    return time;
  }

  blockTimeMs(): number {
    const ms = this.ledger.state.limit('blockTimeMs');
    // Engines arm timers with it: a NaN or negative delay would fire at once, forever.
    assert(Number.isSafeInteger(ms) && ms >= 0, `pipeline: BlockTimeMs ${ms}`);
    return ms;
  }

  /**
   * Up to `max` queued transactions for the next block, within its weight (docs/cost-model.md): the
   * transactions' share of BlockMaxWeight, and one authority's share of that.
   */
  takeTransactions(max: number): QueuedTransaction[] {
    const state = this.ledger.state;
    const now = this.clock.nowMs();
    const { ready, expired } = this.queue.take(
      max,
      now,
      blockWeightBudget(state.limit('blockMaxWeight'), state.limit('transactionMaxWeight')),
    );
    this.announceExpired(expired);
    assert(ready.length <= max, `pipeline: took ${ready.length} transactions, ${max} asked`);
    for (const q of ready) {
      // Handed to a block: admitted and still alive at the time taken.
      assert(q.expiresAtMs > now, `pipeline: ${q.hashHex} taken after it expired`);
      assert(
        !this.inFlight.has(q.hashHex) && !this.queue.has(q.hashHex),
        `pipeline: ${q.hashHex} taken while already in flight or still queued`,
      );
      this.inFlight.add(q.hashHex);
    }
    return ready;
  }

  execute(view: number, creationTimeMs: number, txs: QueuedTransaction[]): ExecutedBlock {
    // Both go into the header, encoded as unsigned integers.
    assert(
      Number.isSafeInteger(view) && view >= 0 && Number.isSafeInteger(creationTimeMs) && creationTimeMs >= 0,
      `pipeline: executing at view ${view}, block time ${creationTimeMs}`,
    );
    return this.ledger.execute({
      view,
      creationTimeMs,
      transactions: txs.map((q) => q.tx),
      hashes: txs.map((q) => q.hash),
      hashHexes: txs.map((q) => q.hashHex),
      encoded: txs.map((q) => q.encoded),
      proofs: this.proofVerdicts,
    });
  }

  async commit(executed: ExecutedBlock, certificate: CommitCertificate): Promise<void> {
    const t0 = this.clock.monotonicMs();
    assertCommitExtendsTip({ height: this.height(), hash: this.tipHash() }, executed, certificate);
    await this.ledger.commit(executed, certificate);
    assertTipIs({ height: this.height(), hash: this.tipHash() }, executed);
    const durationMs = this.clock.monotonicMs() - t0;
    assert(durationMs >= 0, `pipeline: the monotonic clock went back ${-durationMs} ms over a commit`);
    const { height } = executed.header;
    this.counters.blocks = height;
    if (executed.transactions.length > 0) this.counters.blocksNonEmpty++;
    this.counters.lastCommitMs = durationMs;
    for (const hashHex of executed.hashHexes) {
      // Whoever proposed the block: a transaction of ours it includes leaves the queue.
      const wasQueued = this.queue.remove(hashHex) !== undefined;
      const wasInFlight = this.inFlight.delete(hashHex);
      // Queued and in flight are disjoint (O(1) per transaction).
      assert(!(wasQueued && wasInFlight), 'pipeline: a committed transaction was both queued and in flight');
      this.statuses.delete(hashHex);
      this.verified.delete(hashHex);
    }
    // Nothing is announced before it is durable: the log already holds this block.
    assert(
      this.ledger.height() >= height,
      `pipeline: announcing block ${height} above the log's ${this.ledger.height()}`,
    );
    const { events, approved, rejected } = committedBlockEvents(executed);
    this.counters.txsApproved += approved;
    this.counters.txsRejected += rejected;
    this.events.publishBlock(height, events);
    for (const l of this.commitListeners) l(executed, durationMs);
  }

  executeProposed(bytes: Uint8Array): Promise<ProposalVerdict> {
    return checkProposal(bytes, {
      ledger: this.ledger,
      chainId: this.chainId,
      decodeLimits: this.opts.admission.decode,
      blockMaxTransactions: this.blockMaxTransactions(),
      blockMaxWeight: this.ledger.state.limit('blockMaxWeight'),
      transactionMaxWeight: this.ledger.state.limit('transactionMaxWeight'),
      allowedAlgorithms: this.opts.admission.allowedAlgorithms,
      verify: this.opts.verify,
      verified: this.verified,
      proofs: this.proofVerdicts,
    });
  }

  async appendSynced(block: Block): Promise<void> {
    await this.commit(executeSynced(this.ledger, block, this.proofVerdicts), block.certificate);
  }

  blockBytes(height: number): Promise<Uint8Array | undefined> {
    assert(Number.isSafeInteger(height), `pipeline: block bytes of height ${height}`);
    return this.ledger.blockBytes(height);
  }

  /**
   * Own taken transactions back at the queue front. Those committed meanwhile (another peer's block)
   * or released already are skipped; those expired since are dropped and announced.
   */
  release(txs: QueuedTransaction[]): void {
    const now = this.clock.nowMs();
    const back: QueuedTransaction[] = [];
    const expired: QueuedTransaction[] = [];
    for (const q of txs) {
      if (!this.inFlight.delete(q.hashHex)) continue;
      if (this.ledger.locate(q.hash, q.hashHex) !== undefined) continue;
      if (q.expiresAtMs <= now) expired.push(q);
      else back.push(q);
    }
    this.queue.requeueFront(back);
    for (const q of back) assert(this.queue.has(q.hashHex), `pipeline: released ${q.hashHex} not requeued`);
    this.announceExpired(expired);
    if (back.length > 0) this.engine?.notifyWork();
  }

  validatorSet(): Roster {
    if (this.opts.validatorSetOf === undefined)
      throw new Error('this pipeline was built without validatorSetOf: no validator set to report');
    return this.opts.validatorSetOf(this.ledger.state);
  }

  abandon(txs: QueuedTransaction[], reason: string): void {
    for (const q of txs) {
      if (this.inFlight.delete(q.hashHex))
        assert(!this.queue.has(q.hashHex), `pipeline: abandoned ${q.hashHex} was in flight and queued`);
      this.statuses.set(q.hashHex, { status: 'Dropped', message: reason });
    }
  }
}
