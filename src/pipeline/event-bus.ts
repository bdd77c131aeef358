// The event bus (docs/design/paths.md): every pipeline and data event gets
// an increasing id (event-id.ts: committed events by height and position, stable across restarts), is
// kept in a bounded history for resumption, and is delivered synchronously to subscribers in id order.
// Subscribers must not block: stream code buffers with its own limits.

import type { Event, EventEnvelope } from '../model/events.js';
import { assert } from '../util/assert.js';
import {
  APPLIED_POSITION,
  appliedEventId,
  committedEventId,
  eventIdPlace,
  pendingEventId,
} from './event-id.js';

export type EventListener = (e: EventEnvelope) => void;

export class EventBus {
  private readonly history: EventEnvelope[] = [];
  private head = 0; // index of the oldest kept event in `history` (a ring kept as an array + offset)
  private last: number;
  /** Every event with an id above this one is still in `history`: resuming from here loses nothing. */
  private floor: number;
  private tip: number;
  private pendingSeq = 0;
  private readonly listeners = new Set<EventListener>();

  /** `tipHeight`: the committed height at start; its events were announced by an earlier run. */
  constructor(
    private readonly historyMax: number,
    tipHeight = 0,
  ) {
    assert(
      Number.isSafeInteger(historyMax) &&
        historyMax >= 0 &&
        Number.isSafeInteger(tipHeight) &&
        tipHeight >= 0,
      `event bus over ${historyMax} events from height ${tipHeight}`,
    );
    this.tip = tipHeight;
    this.last = appliedEventId(tipHeight);
    this.floor = this.last;
  }

  /** A committed block's events in chain order; the last one must be its Block Applied. */
  publishBlock(height: number, events: readonly Event[]): void {
    assert(height > this.tip && events.length >= 1, 'blocks are announced once, in height order');
    assert(events.length - 1 <= APPLIED_POSITION, 'more events in one block than its id span holds');
    // The block's own Block Applied closes its list (its id is known from the height alone).
    const applied = events[events.length - 1]!;
    assert(
      applied.kind === 'Block' && applied.height === height && applied.status.kind === 'Applied',
      `event bus: block ${height}'s events end with a ${applied.kind} event`,
    );
    this.tip = height;
    this.pendingSeq = 0;
    for (let i = 0; i < events.length - 1; i++) this.emit(committedEventId(height, i), events[i]!);
    this.emit(appliedEventId(height), events[events.length - 1]!);
  }

  /** A notification that is not part of the chain (a transaction queued or expired). */
  publishPending(event: Event): EventEnvelope {
    const env = this.emit(pendingEventId(this.tip, this.pendingSeq++), event);
    // A pending notification sits after the tip block's span, never among a block's committed events.
    const place = eventIdPlace(env.id);
    assert(
      place.pending && place.height === this.tip,
      `event bus: pending event ${env.id} outside the pending span of height ${this.tip}`,
    );
    return env;
  }

  private emit(id: number, event: Event): EventEnvelope {
    if (id <= this.last) return { id: this.last, event }; // a saturated pending span: nothing new to send
    const env: EventEnvelope = { id, event };
    this.last = id;
    this.history.push(env);
    if (this.history.length - this.head > this.historyMax) this.floor = this.history[this.head++]!.id;
    // Bounded, and everything above the floor is still held (resumption from the floor loses nothing);
    // the floor reaches this event only when no history is kept at all.
    assert(
      this.history.length - this.head <= this.historyMax &&
        (this.floor < id || (this.historyMax === 0 && this.floor === id)),
      `event bus: ${this.history.length - this.head} events held of ${this.historyMax}, floor ${this.floor}`,
    );
    if (this.head > 4096 && this.head * 2 > this.history.length) {
      this.history.splice(0, this.head);
      this.head = 0;
    }
    for (const l of this.listeners) l(env);
    return env;
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  lastId(): number {
    // Resuming from the last id is always possible: the floor never passes it.
    assert(this.floor <= this.last, `event bus: floor ${this.floor} above the last id ${this.last}`);
    return this.last;
  }

  /**
   * Events with id > lastId, or 'gone' when some of them are no longer held: older than the history
   * (or than this run's start), or an id this chain has not reached. An id in the pending span of the
   * current tip that this run never issued comes from a run before a restart: the pending notifications
   * of that run are not replayed, this run's are.
   */
  since(lastId: number): EventEnvelope[] | 'gone' {
    let from = lastId;
    if (from > this.last) {
      const place = eventIdPlace(from);
      if (!place.pending || place.height !== this.tip) return 'gone';
      from = appliedEventId(this.tip);
    }
    if (from < this.floor) return 'gone';
    // History is sorted by id: binary search for the first id above `from`.
    let lo = this.head;
    let hi = this.history.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.history[mid]!.id <= from) lo = mid + 1;
      else hi = mid;
    }
    // The held events are in id order, so the first one returned is the first above `from`.
    assert(
      (lo === this.history.length || this.history[lo]!.id > from) &&
        (lo === this.head || this.history[lo - 1]!.id <= from),
      `event bus: resumption from ${from} starts at position ${lo}`,
    );
    return this.history.slice(lo);
  }

  get subscriberCount(): number {
    return this.listeners.size;
  }
}
