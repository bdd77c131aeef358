// Transactions whose signature this peer has verified (design: "a replica verifies each transaction
// signature once"): admission records each hash it verified, and a proposed block verifies only the
// transactions not found here. Bounded: past `max` entries the oldest are forgotten (a forgotten one is
// merely verified again). Only membership is asked, never the order, so nothing hashed depends on it.

import { assert } from '../util/assert.js';

/**
 * Default bound of the cache: a full default queue (65,536) and a few proposals' worth on top; about
 * 13 MB of hex strings when full.
 */
export const VERIFIED_TX_CACHE_MAX = 100_000;

export class VerifiedTransactions {
  private readonly hashes = new Set<string>();

  constructor(readonly max: number = VERIFIED_TX_CACHE_MAX) {
    if (!Number.isSafeInteger(max) || max < 1)
      throw new RangeError('the verified-transaction cache needs max >= 1');
  }

  get size(): number {
    assert(this.hashes.size <= this.max, `verified cache holds ${this.hashes.size} > ${this.max}`);
    return this.hashes.size;
  }

  has(hashHex: string): boolean {
    // Keys are the 32-byte transaction hashes in hex: anything else is a caller's mix-up.
    assert(hashHex.length === 64, `verified cache: a ${hashHex.length}-character key`);
    return this.hashes.has(hashHex);
  }

  add(hashHex: string): void {
    assert(hashHex.length === 64, `verified cache: a ${hashHex.length}-character key`);
    if (this.hashes.has(hashHex)) return;
    this.hashes.add(hashHex);
    if (this.hashes.size > this.max) this.hashes.delete(this.hashes.values().next().value!);
    // Bounded, and the newest is never the one forgotten.
    assert(this.hashes.size <= this.max && this.hashes.has(hashHex), 'verified cache over its bound');
  }

  delete(hashHex: string): void {
    this.hashes.delete(hashHex);
    assert(!this.hashes.has(hashHex), 'verified cache: a deleted hash is still held');
  }
}
