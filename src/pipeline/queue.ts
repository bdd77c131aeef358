// The transaction queue (reference-notes §1): bounded, deduplicated by hash, with a per-account cap and
// expiry (the queue's own limit, and each transaction's TTL). FIFO within the order of admission.

import type { SignedTransaction } from '../model/transaction.js';

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
  /** The earliest of the TTL expiry and the queue's own expiry. */
  readonly expiresAtMs: number;
}

export interface QueueLimits {
  capacity: number;
  perAccountMax: number;
  expiryMs: number;
}

export type PushResult =
  | { ok: true; depth: number }
  | { ok: false; code: 'already_enqueued' | 'queue_full' | 'account_queue_full'; depth: number };

export class TransactionQueue {
  private readonly entries = new Map<string, QueuedTransaction>();
  private readonly perAccount = new Map<string, number>();

  constructor(readonly limits: QueueLimits) {}

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
    const authority = q.tx.payload.authority;
    const n = this.perAccount.get(authority) ?? 0;
    if (n >= this.limits.perAccountMax)
      return { ok: false, code: 'account_queue_full', depth: this.entries.size };
    this.entries.set(q.hashHex, q);
    this.perAccount.set(authority, n + 1);
    return { ok: true, depth: this.entries.size };
  }

  /**
   * Removes and returns up to `max` transactions in admission order, skipping (and returning separately)
   * those that expired before `nowMs`.
   */
  take(max: number, nowMs: number): { ready: QueuedTransaction[]; expired: QueuedTransaction[] } {
    const ready: QueuedTransaction[] = [];
    const expired: QueuedTransaction[] = [];
    for (const q of this.entries.values()) {
      if (ready.length >= max) break;
      this.remove(q);
      if (q.expiresAtMs <= nowMs) expired.push(q);
      else ready.push(q);
    }
    return { ready, expired };
  }

  /** Removes every expired transaction (run on a timer so idle queues do not hold stale entries). */
  sweep(nowMs: number): QueuedTransaction[] {
    const expired: QueuedTransaction[] = [];
    for (const q of this.entries.values()) if (q.expiresAtMs <= nowMs) expired.push(q);
    for (const q of expired) this.remove(q);
    return expired;
  }

  private remove(q: QueuedTransaction): void {
    this.entries.delete(q.hashHex);
    const authority = q.tx.payload.authority;
    const n = (this.perAccount.get(authority) ?? 1) - 1;
    if (n === 0) this.perAccount.delete(authority);
    else this.perAccount.set(authority, n);
  }
}
