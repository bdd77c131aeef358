// Fan-out of the node's event bus to every stream subscriber of one server (reference-notes §5;
// design/testing.md benchmarks fan-out to 10,000 subscribers). The hub subscribes to the bus once, while
// it has subscribers, and wraps each event ONCE in a SharedEvent: its filter projection is computed
// eagerly (every subscriber's filter reads it), its encodings (SSE frame, WebSocket JSON text, framed
// codec) on first use and then shared, so N subscribers cost one serialisation per format, not N, and a
// lagging subscriber's queue holds references rather than copies.

import { encodeFrame } from '../codec/frame.js';
import type { SchemaRegistry } from '../codec/registry.js';
import { EventCodec, type EventEnvelope, EventEnvelopeCodec } from '../model/events.js';
import { AssertionError } from '../util/assert.js';
import { type EventFields, eventName, projectEvent } from './event-filter.js';
import type { EventsPort } from './ports.js';
import { formatEvent, type StreamEvent } from './sse-frame.js';
import type { EventFeed } from './sse-session.js';

/** Live events kept wrapped for resuming subscribers (older ones are re-wrapped from bus history). */
export const RECENT_EVENTS_MAX = 1024;

export class SharedEvent implements StreamEvent {
  readonly id: number;
  readonly name: string;
  readonly fields: EventFields;
  private json: unknown;
  private sse: string | undefined;
  private text: string | undefined;
  private binary: Uint8Array | undefined;

  constructor(
    readonly envelope: EventEnvelope,
    private readonly schema: SchemaRegistry,
  ) {
    this.id = envelope.id;
    this.name = eventName(envelope.event);
    this.fields = projectEvent(envelope.event);
  }

  /** `EventCodec.toJson` of the event (the SSE `data:` value). */
  get data(): unknown {
    this.json ??= EventCodec.toJson(this.envelope.event);
    return this.json;
  }

  /** The complete SSE frame (`id:`, `event:`, `data:`). */
  get frame(): string {
    this.sse ??= formatEvent({ id: this.id, name: this.name, data: this.data });
    return this.sse;
  }

  /** The WebSocket text message `{"id":…,"event":…}`. */
  jsonText(): string {
    this.text ??= `{"id":${this.id},"event":${JSON.stringify(this.data)}}`;
    return this.text;
  }

  /** The WebSocket binary message: a framed codec `EventEnvelope`. */
  codecFrame(): Uint8Array {
    this.binary ??= encodeFrame(this.schema, EventEnvelopeCodec, this.envelope);
    return this.binary;
  }
}

export class EventHub implements EventFeed {
  private readonly listeners = new Set<(e: SharedEvent) => void>();
  private readonly recent = new Map<number, SharedEvent>();
  private detach: (() => void) | undefined;

  constructor(
    private readonly bus: EventsPort,
    private readonly schema: SchemaRegistry,
    /** A listener that throws must not break the bus (it runs inside the commit path). */
    private readonly onError: (err: unknown) => void,
  ) {}

  subscribe(fn: (e: SharedEvent) => void): () => void {
    const listener = (e: SharedEvent) => fn(e); // one entry per call, even for the same fn
    this.listeners.add(listener);
    this.detach ??= this.bus.subscribe((env) => this.publish(env));
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0 && this.detach !== undefined) {
        this.detach();
        this.detach = undefined;
        this.recent.clear();
      }
    };
  }

  lastId(): number {
    return this.bus.lastId();
  }

  /**
   * Events after `lastId`, or 'gone' when the bus no longer holds all of them (the bus decides: ids are
   * stable across restarts but not contiguous, pipeline/event-id.ts).
   */
  since(lastId: number): SharedEvent[] | 'gone' {
    const history = this.bus.since(lastId);
    if (history === 'gone') return 'gone';
    return history.map((env) => this.recent.get(env.id) ?? new SharedEvent(env, this.schema));
  }

  /** The filter projection of an event this hub delivered (all of them are SharedEvents). */
  fieldsOf(e: StreamEvent): EventFields {
    if (!(e instanceof SharedEvent)) throw new AssertionError('event not delivered by this hub');
    return e.fields;
  }

  get subscriberCount(): number {
    return this.listeners.size;
  }

  private publish(env: EventEnvelope): void {
    const e = new SharedEvent(env, this.schema);
    this.recent.set(e.id, e);
    if (this.recent.size > RECENT_EVENTS_MAX) this.recent.delete(this.recent.keys().next().value!);
    for (const fn of this.listeners) {
      try {
        fn(e);
      } catch (err) {
        this.onError(err);
      }
    }
  }
}
