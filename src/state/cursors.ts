// Query cursors: the rest of an iterable query's result, held for its authority
// between batches. Bounded in count, in total (cursors_exhausted, 429) and per authority, and in idle
// time (cursor_expired, 410); ids are 128 random bits so one client cannot guess another's cursor, and a
// cursor answers only the authority that opened it (to anyone else it does not exist). The clock is
// injected; nothing here is global.
//
// A cursor holds a Pager — a position over its result (a range of the chain, or
// references to immutable rows), never decoded copies — and idle cursors are freed by a timer
// (`sweepEveryMs`, unref'd), not only when the next one opens.

import { randomBytes } from 'node:crypto';
import type { QueryOutput } from '../model/queries.js';
import { type QueryError, queryError } from './errors.js';

export interface CursorStoreOptions {
  /** Live cursors at most; opening one more answers cursors_exhausted. */
  readonly capacity: number;
  /** Live cursors of one authority at most (default: capacity). */
  readonly perAuthorityMax?: number;
  /** A cursor not used for this long expires. */
  readonly idleExpiryMs: number;
  readonly now: () => number;
  /** When set, idle cursors are swept this often by an unref'd timer (stop it with close()). */
  readonly sweepEveryMs?: number;
  /** Cursor id source; defaults to 16 random bytes as hex. */
  readonly newId?: () => string;
}

/** The rest of a result, read batch by batch. */
export interface Pager {
  /** Items not yet taken. */
  readonly remaining: number;
  /** The next `n` items (fewer at the end). */
  take(n: number): QueryOutput[];
}

export interface Batch {
  readonly batch: QueryOutput[];
  readonly remainingItems: number;
  readonly cursor?: string;
}

interface Entry {
  readonly authority: string;
  readonly pager: Pager;
  readonly fetchSize: number;
  lastUsedMs: number;
}

export class CursorStore {
  private readonly live = new Map<string, Entry>();
  private readonly perAuthority = new Map<string, number>();
  /** Ids that expired recently, so a late client hears "expired" rather than "unknown" (bounded, FIFO). */
  private readonly expired = new Set<string>();
  private readonly newId: () => string;
  private readonly timer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly opts: CursorStoreOptions) {
    if (!Number.isSafeInteger(opts.capacity) || opts.capacity < 1)
      throw new RangeError('cursor capacity must be >= 1');
    if (!(opts.idleExpiryMs > 0)) throw new RangeError('cursor idle expiry must be > 0');
    this.newId = opts.newId ?? (() => randomBytes(16).toString('hex'));
    if (opts.sweepEveryMs !== undefined) {
      this.timer = setInterval(() => this.sweep(), opts.sweepEveryMs);
      this.timer.unref();
    }
  }

  get size(): number {
    return this.live.size;
  }

  /** Stops the sweep timer; the cursors stay readable until they expire. */
  close(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
  }

  /** Keeps `pager` (taken in batches of `fetchSize`) for `authority`; returns the cursor id. */
  open(authority: string, pager: Pager, fetchSize: number): string | QueryError {
    this.sweep();
    const held = this.perAuthority.get(authority) ?? 0;
    const perMax = this.opts.perAuthorityMax ?? this.opts.capacity;
    if (this.live.size >= this.opts.capacity || held >= perMax) {
      return queryError('cursors_exhausted', 'too many open query cursors; retry later', {
        capacity: this.opts.capacity,
        per_account_max: perMax,
        held_by_account: held,
      });
    }
    let id = this.newId();
    while (this.live.has(id) || this.expired.has(id)) id = this.newId();
    this.live.set(id, { authority, pager, fetchSize, lastUsedMs: this.opts.now() });
    this.perAuthority.set(authority, held + 1);
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
    const batch = e.pager.take(e.fetchSize);
    e.lastUsedMs = now;
    const remainingItems = e.pager.remaining;
    if (remainingItems === 0) {
      this.remove(id);
      return { batch, remainingItems };
    }
    return { batch, remainingItems, cursor: id };
  }

  /** Expires every idle cursor (also done on each open, and by the timer when configured). */
  sweep(): void {
    const now = this.opts.now();
    for (const [id, e] of this.live) if (now - e.lastUsedMs > this.opts.idleExpiryMs) this.expire(id);
  }

  private remove(id: string): void {
    const e = this.live.get(id);
    if (e === undefined) return;
    this.live.delete(id);
    const held = (this.perAuthority.get(e.authority) ?? 1) - 1;
    if (held <= 0) this.perAuthority.delete(e.authority);
    else this.perAuthority.set(e.authority, held);
  }

  private expire(id: string): void {
    this.remove(id);
    this.expired.add(id);
    // Remember at most `capacity` expired ids; Set iteration order is insertion order (oldest first).
    while (this.expired.size > this.opts.capacity) this.expired.delete(this.expired.values().next().value!);
  }
}

/** A pager over references kept in memory (8 bytes each), turned into outputs only when taken. */
export function refPager<R>(refs: readonly R[], output: (ref: R) => QueryOutput): Pager {
  let position = 0;
  return {
    get remaining() {
      return refs.length - position;
    },
    take(n) {
      const out = refs.slice(position, position + n).map(output);
      position += out.length;
      return out;
    },
  };
}
