// Query cursors (reference-notes §1): the rest of an iterable query's result, held for its authority
// between batches. Bounded in count (cursors_exhausted, 429) and idle time (cursor_expired, 410); ids are
// 128 random bits so one client cannot guess another's cursor, and a cursor answers only the authority
// that opened it (to anyone else it does not exist). The clock is injected; nothing here is global.

import { randomBytes } from 'node:crypto';
import type { QueryOutput } from '../model/queries.js';
import { type QueryError, queryError } from './errors.js';

export interface CursorStoreOptions {
  /** Live cursors at most; opening one more answers cursors_exhausted. */
  readonly capacity: number;
  /** A cursor not used for this long expires. */
  readonly idleExpiryMs: number;
  readonly now: () => number;
  /** Cursor id source; defaults to 16 random bytes as hex. */
  readonly newId?: () => string;
}

export interface Batch {
  readonly batch: QueryOutput[];
  readonly remainingItems: number;
  readonly cursor?: string;
}

interface Entry {
  readonly authority: string;
  readonly items: readonly QueryOutput[];
  readonly fetchSize: number;
  position: number;
  lastUsedMs: number;
}

export class CursorStore {
  private readonly live = new Map<string, Entry>();
  /** Ids that expired recently, so a late client hears "expired" rather than "unknown" (bounded, FIFO). */
  private readonly expired = new Set<string>();
  private readonly newId: () => string;

  constructor(private readonly opts: CursorStoreOptions) {
    if (!Number.isSafeInteger(opts.capacity) || opts.capacity < 1)
      throw new RangeError('cursor capacity must be >= 1');
    if (!(opts.idleExpiryMs > 0)) throw new RangeError('cursor idle expiry must be > 0');
    this.newId = opts.newId ?? (() => randomBytes(16).toString('hex'));
  }

  get size(): number {
    return this.live.size;
  }

  /** Keeps `items` (taken in batches of `fetchSize`) for `authority`; returns the cursor id. */
  open(authority: string, items: readonly QueryOutput[], fetchSize: number): string | QueryError {
    this.sweep();
    if (this.live.size >= this.opts.capacity) {
      return queryError('cursors_exhausted', 'too many open query cursors; retry later', {
        capacity: this.opts.capacity,
      });
    }
    let id = this.newId();
    while (this.live.has(id) || this.expired.has(id)) id = this.newId();
    this.live.set(id, { authority, items, fetchSize, position: 0, lastUsedMs: this.opts.now() });
    return id;
  }

  /** The next batch of cursor `id`; the cursor closes after its last batch. */
  next(id: string, authority: string): Batch | QueryError {
    const e = this.live.get(id);
    if (e === undefined || e.authority !== authority) {
      if (this.expired.has(id))
        return queryError('cursor_expired', 'the query cursor expired', { cursor: id });
      return queryError('cursor_not_found', 'no such query cursor', { cursor: id });
    }
    const now = this.opts.now();
    if (now - e.lastUsedMs > this.opts.idleExpiryMs) {
      this.expire(id);
      return queryError('cursor_expired', 'the query cursor expired', {
        cursor: id,
        idle_expiry_ms: this.opts.idleExpiryMs,
      });
    }
    const batch = e.items.slice(e.position, e.position + e.fetchSize);
    e.position += batch.length;
    e.lastUsedMs = now;
    const remainingItems = e.items.length - e.position;
    if (remainingItems === 0) {
      this.live.delete(id);
      return { batch, remainingItems };
    }
    return { batch, remainingItems, cursor: id };
  }

  /** Expires every idle cursor (also done on each open). */
  sweep(): void {
    const now = this.opts.now();
    for (const [id, e] of this.live) if (now - e.lastUsedMs > this.opts.idleExpiryMs) this.expire(id);
  }

  private expire(id: string): void {
    this.live.delete(id);
    this.expired.add(id);
    // Remember at most `capacity` expired ids; Set iteration order is insertion order (oldest first).
    while (this.expired.size > this.opts.capacity) this.expired.delete(this.expired.values().next().value!);
  }
}
