// Statuses of transactions that are not (yet) in a committed block: queued, expired or dropped. Bounded:
// the oldest entries are forgotten first (committed transactions are found through the ledger index).

import type { Rejection } from '../model/rejections.js';
import { assert } from '../util/assert.js';

export type TrackedStatus =
  | { status: 'Queued' }
  | { status: 'Expired' }
  | { status: 'Dropped'; message: string }
  | { status: 'Committed'; blockHeight: number }
  | { status: 'Rejected'; reason: Rejection; blockHeight: number };

export class RecentStatuses {
  private readonly map = new Map<string, TrackedStatus>();
  constructor(private readonly max: number) {
    // A bound below 1 would forget each status the moment it is set.
    assert(Number.isSafeInteger(max) && max >= 1, `recent statuses bounded at ${max}`);
  }

  set(hashHex: string, s: TrackedStatus): void {
    this.map.delete(hashHex);
    this.map.set(hashHex, s);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value!);
    // Bounded, and the status just set is the newest one kept.
    assert(
      this.map.size <= this.max && this.map.get(hashHex) === s,
      `recent statuses: ${this.map.size} kept`,
    );
  }

  get(hashHex: string): TrackedStatus | undefined {
    return this.map.get(hashHex);
  }

  delete(hashHex: string): void {
    this.map.delete(hashHex);
    assert(!this.map.has(hashHex), 'recent statuses: a deleted status is still kept');
  }
}
