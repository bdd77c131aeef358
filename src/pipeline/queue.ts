// The transaction queue: bounded, deduplicated by hash, with caps per authority
// account, per signing key and per source address (one client with many keys or many accounts must
// not fill the queue alone: docs/security.md "Writing to the ledger"), and expiry (the queue's own limit, and each
// transaction's TTL). FIFO within the order of admission.

import type { SignedTransaction } from '../model/transaction.js';
import { assert } from '../util/assert.js';

export interface QueuedTransaction {
  readonly tx: SignedTransaction;
  readonly hash: Uint8Array;
  readonly hashHex: string;
  readonly encodedBytes: number;
  /**
   * The canonical encoding as received (admission checked it decodes to `tx`), so the block encoder can
   * copy it instead of encoding `tx` again. Absent for transactions not built from received bytes.
   */
  readonly encoded?: Uint8Array;
  readonly admittedAtMs: number;
  /** The submitter's network address (the gateway's client key); absent for in-process submitters. */
  readonly source?: string;
  /** The earliest of the TTL expiry and the queue's own expiry. */
  readonly expiresAtMs: number;
  /** The static weight admission computed (model/weights.ts); absent: computed when a block is built. */
  readonly weight?: number;
}

/** The weight a block may take (docs/cost-model.md): its total and one authority's share of it. */
export interface WeightBudget {
  total: number;
  perAccount: number;
  weightOf(q: QueuedTransaction): number;
}

export interface QueueLimits {
  capacity: number;
  perAccountMax: number;
  /** Transactions queued whose authority is signed by one key (in any domain). */
  perKeyMax?: number;
  /** Transactions queued from one source address (submissions without a source are not counted). */
  perSourceMax?: number;
  expiryMs: number;
}

export type QueueFullCode = 'queue_full' | 'account_queue_full' | 'key_queue_full' | 'source_queue_full';

export type PushResult =
  | { ok: true; depth: number }
  | { ok: false; code: 'already_enqueued' | QueueFullCode; depth: number };

/** Counts per name, forgetting names whose count drops to zero (so the maps stay as small as the queue). */
class Tally {
  private readonly counts = new Map<string, number>();
  get(name: string): number {
    const n = this.counts.get(name);
    // Names whose count drops to zero are forgotten: a kept count is at least one.
    assert(n === undefined || n >= 1, 'queue tally: a count kept below one');
    return n ?? 0;
  }
  add(name: string): void {
    const n = this.get(name) + 1;
    // A count never exceeds the transactions queued: it stays a small exact integer.
    assert(Number.isSafeInteger(n), 'queue tally: a count past the safe integers');
    this.counts.set(name, n);
  }
  remove(name: string): void {
    const n = this.get(name) - 1;
    // Every removal matches an earlier add: a count below zero would let the cap count someone twice.
    assert(n >= 0, `queue tally: ${name} removed more often than added`);
    if (n <= 0) this.counts.delete(name);
    else this.counts.set(name, n);
  }
}

/** The signing key of an account id `signatory@domain` (the key text never holds `@`). */
export function signatoryOf(authority: string): string {
  const at = authority.indexOf('@');
  const signatory = at < 0 ? authority : authority.slice(0, at);
  assert(!signatory.includes('@'), `queue: signatory of ${authority}`);
  return signatory;
}

export class TransactionQueue {
  private entries = new Map<string, QueuedTransaction>();
  private readonly perAccount = new Tally();
  private readonly perKey = new Tally();
  private readonly perSource = new Tally();

  constructor(readonly limits: QueueLimits) {
    // Config (validated by the schema): a NaN cap would refuse nothing, a zero one everything.
    assert(
      limits.capacity >= 1 && limits.perAccountMax >= 1 && limits.expiryMs >= 1,
      `queue limits: capacity ${limits.capacity}, per account ${limits.perAccountMax}, expiry ${limits.expiryMs} ms`,
    );
  }

  get depth(): number {
    return this.entries.size;
  }

  get capacity(): number {
    return this.limits.capacity;
  }

  has(hashHex: string): boolean {
    return this.entries.has(hashHex);
  }

  push(q: QueuedTransaction): PushResult {
    if (this.entries.has(q.hashHex)) return { ok: false, code: 'already_enqueued', depth: this.entries.size };
    if (this.entries.size >= this.limits.capacity)
      return { ok: false, code: 'queue_full', depth: this.entries.size };
    const full = this.capReached(q);
    if (full !== undefined) return { ok: false, code: full, depth: this.entries.size };
    this.entries.set(q.hashHex, q);
    this.count(q);
    // Within its bounds: a push never takes the queue past its capacity, nor an account past its cap.
    assert(
      this.entries.size <= this.limits.capacity &&
        this.perAccount.get(q.tx.payload.authority) <= this.limits.perAccountMax,
      'queue: a push went past the capacity or the account cap',
    );
    return { ok: true, depth: this.entries.size };
  }

  /** The first per-submitter cap `q` would exceed: account, then key, then source address. */
  private capReached(q: QueuedTransaction): QueueFullCode | undefined {
    // Asked only for a new transaction (push refused a duplicate first): its own count is not in the tallies.
    assert(!this.entries.has(q.hashHex), `queue: cap check of ${q.hashHex}, already queued`);
    const authority = q.tx.payload.authority;
    const l = this.limits;
    if (this.perAccount.get(authority) >= l.perAccountMax) return 'account_queue_full';
    if (l.perKeyMax !== undefined && this.perKey.get(signatoryOf(authority)) >= l.perKeyMax)
      return 'key_queue_full';
    if (
      q.source !== undefined &&
      l.perSourceMax !== undefined &&
      this.perSource.get(q.source) >= l.perSourceMax
    )
      return 'source_queue_full';
    return undefined;
  }

  /**
   * Removes and returns up to `max` transactions in admission order, skipping (and returning separately)
   * those that expired before `nowMs`. With a budget, the taken transactions' weights stay within its
   * total and each authority's within its share; those that do not fit stay queued, in order.
   */
  take(
    max: number,
    nowMs: number,
    budget?: WeightBudget,
  ): { ready: QueuedTransaction[]; expired: QueuedTransaction[] } {
    assert(Number.isSafeInteger(max) && max >= 0 && !Number.isNaN(nowMs), `queue: take ${max} at ${nowMs}`);
    const ready: QueuedTransaction[] = [];
    const expired: QueuedTransaction[] = [];
    let left = budget?.total ?? Number.POSITIVE_INFINITY;
    const spent = new Map<string, number>();
    // An authority whose next transaction did not fit waits for the next block with all of its later
    // ones, so its transactions keep their order; others behind it still get their turn.
    const held = new Set<string>();
    for (const q of this.entries.values()) {
      if (ready.length >= max) break;
      if (q.expiresAtMs <= nowMs) {
        this.drop(q);
        expired.push(q);
        continue;
      }
      if (budget !== undefined) {
        const authority = q.tx.payload.authority;
        if (held.has(authority)) continue;
        const w = budget.weightOf(q);
        // A NaN or negative weight would pass every `w > left` test and overfill the block.
        assert(Number.isSafeInteger(w) && w >= 0, `queue: ${q.hashHex} weighs ${w}`);
        if (w > budget.perAccount || w > budget.total) {
          // Admitted under larger caps (lowered since): it can never fit a block, so it leaves the
          // queue like an expired transaction instead of holding its authority's later ones.
          this.drop(q);
          expired.push(q);
          continue;
        }
        const mine = spent.get(authority) ?? 0;
        if (w > left || mine + w > budget.perAccount) {
          held.add(authority);
          continue;
        }
        left -= w;
        spent.set(authority, mine + w);
      }
      this.drop(q);
      ready.push(q);
    }
    assert(
      ready.length <= max && left >= 0,
      `queue: took ${ready.length} of at most ${max}, ${left} weight left of the budget`,
    );
    return { ready, expired };
  }

  /** Removes every expired transaction (run on a timer so idle queues do not hold stale entries). */
  sweep(nowMs: number): QueuedTransaction[] {
    // A NaN time would expire nothing, ever.
    assert(!Number.isNaN(nowMs), 'queue: swept at NaN');
    const expired: QueuedTransaction[] = [];
    for (const q of this.entries.values()) if (q.expiresAtMs <= nowMs) expired.push(q);
    for (const q of expired) this.drop(q);
    return expired;
  }

  /** Removes one transaction by hash (another peer's block committed it); undefined when absent. */
  remove(hashHex: string): QueuedTransaction | undefined {
    const q = this.entries.get(hashHex);
    if (q !== undefined) this.drop(q);
    // Gone either way: a committed transaction is never offered again from this queue.
    assert(!this.entries.has(hashHex), `queue: ${hashHex} still queued after its removal`);
    return q;
  }

  /**
   * Puts taken transactions back at the front, in the given order, ahead of everything queued since
   * (a proposal that lost its view). They were admitted and counted once already, so neither the
   * capacity nor the per-submitter caps refuse them: the queue may exceed its capacity by at most
   * the transactions of one proposal, until they are taken again. Those already queued are skipped.
   * Returns how many were put back.
   */
  requeueFront(txs: readonly QueuedTransaction[]): number {
    const front = new Map<string, QueuedTransaction>();
    for (const q of txs) if (!this.entries.has(q.hashHex) && !front.has(q.hashHex)) front.set(q.hashHex, q);
    const added = front.size;
    if (added === 0) return 0;
    const before = this.entries.size;
    for (const q of front.values()) this.count(q);
    for (const [k, q] of this.entries) front.set(k, q);
    // The requeued were not queued: the rebuilt map holds exactly both, nothing overwritten.
    assert(front.size === before + added, `queue: requeued ${added} onto ${before}, holding ${front.size}`);
    this.entries = front;
    return added;
  }

  private count(q: QueuedTransaction): void {
    const authority = q.tx.payload.authority;
    // Admitted with time left to live (the pipeline never queues one already expired).
    assert(q.expiresAtMs > q.admittedAtMs, `queue: ${q.hashHex} counted already expired at admission`);
    this.perAccount.add(authority);
    this.perKey.add(signatoryOf(authority));
    if (q.source !== undefined) this.perSource.add(q.source);
  }

  private drop(q: QueuedTransaction): void {
    // Dropping one not queued would take its submitters' counts from transactions that are.
    const had = this.entries.delete(q.hashHex);
    assert(had, `queue: dropping ${q.hashHex}, which is not queued`);
    const authority = q.tx.payload.authority;
    this.perAccount.remove(authority);
    this.perKey.remove(signatoryOf(authority));
    if (q.source !== undefined) this.perSource.remove(q.source);
  }
}
