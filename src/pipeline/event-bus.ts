// The event bus (architecture.md "The path of a transaction" step 4): every pipeline and data event gets a
// strictly increasing id, is kept in a bounded history for resumption, and is delivered synchronously to
// subscribers in id order. Subscribers must not block: stream code buffers with its own limits.

import type { Event, EventEnvelope } from '../model/events.js';

export type EventListener = (e: EventEnvelope) => void;

export class EventBus {
  private readonly history: EventEnvelope[] = [];
  private head = 0; // index of the oldest kept event in `history` (a ring kept as an array + offset)
  private nextId = 1;
  private readonly listeners = new Set<EventListener>();

  constructor(private readonly historyMax: number) {}

  publish(event: Event): EventEnvelope {
    const env: EventEnvelope = { id: this.nextId++, event };
    this.history.push(env);
    if (this.history.length - this.head > this.historyMax) this.head++;
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
    return this.nextId - 1;
  }

  /** Events with id > lastId still in history, or 'gone' when some of them were already dropped. */
  since(lastId: number): EventEnvelope[] | 'gone' {
    const oldest = this.history[this.head];
    if (oldest === undefined || lastId >= this.nextId - 1) return [];
    if (lastId + 1 < oldest.id) return 'gone';
    return this.history.slice(this.head + (lastId + 1 - oldest.id));
  }

  get subscriberCount(): number {
    return this.listeners.size;
  }
}
