// Fan-out of the node's event bus to every stream subscriber of one server (docs/design/testing.md).
// The hub subscribes to the bus once, while
// it has subscribers, and wraps each event ONCE in a SharedEvent: its filter projection is computed
// eagerly, its encodings (SSE frame, WebSocket JSON text, framed codec, WebSocket frames) on first use
// and then shared, so N subscribers cost one serialisation per format, not N, and a lagging
// subscriber's queue holds references rather than copies.
// Delivery is batched and grouped. The bus calls the hub inside the commit path, so publishing only
// queues the event; after pending I/O (setImmediate) the hub hands each group of subscribers the events
// its filter keeps, as one SharedBatch. A group is the subscribers whose filters have the same key
// (equal keys promise equal filters): its filter runs once per event for all of them, and they share
// the batch's wire bytes, which each writes to its socket in one write. Subscribers without a key each
// form a group of their own. Ids only grow, and a batch holds its events in id order.
import { encodeFrame } from '../codec/frame.js';
import type { SchemaRegistry } from '../codec/registry.js';
import { EventCodec, type EventEnvelope, EventEnvelopeCodec } from '../model/events.js';
import { AssertionError } from '../util/assert.js';
import { EventBatch } from './event-batch.js';
import { type EventFields, eventName, projectEvent } from './event-filter.js';
import type { EventsPort } from './ports.js';
import { formatEvent, type StreamEvent } from './sse-frame.js';
import type { EventFeed, FeedFilter } from './sse-session.js';
import { encodeWsFrame, WS_OPCODE } from './ws-frame.js';

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
  private wsText: Buffer | undefined;
  private wsBinary: Buffer | undefined;

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

  /** The whole WebSocket frame (ws-frame.ts) of `jsonText()` or of `codecFrame()`. */
  wsFrame(binary: boolean): Buffer {
    if (binary) {
      this.wsBinary ??= encodeWsFrame(WS_OPCODE.binary, this.codecFrame());
      return this.wsBinary;
    }
    this.wsText ??= encodeWsFrame(WS_OPCODE.text, Buffer.from(this.jsonText(), 'utf8'));
    return this.wsText;
  }
}

/** Events for one group of subscribers, with their wire forms shared by the group. */
export class SharedBatch extends EventBatch<SharedEvent> {
  private text: Buffer | undefined;
  private binary: Buffer | undefined;

  /** The events' WebSocket frames (text or binary messages), concatenated. */
  wsFrames(binary: boolean): Buffer {
    const build = () =>
      this.events.length === 1
        ? this.events[0]!.wsFrame(binary)
        : Buffer.concat(this.events.map((e) => e.wsFrame(binary)));
    if (binary) {
      this.binary ??= build();
      return this.binary;
    }
    this.text ??= build();
    return this.text;
  }
}

type BatchListener = (batch: SharedBatch) => void;

interface Group {
  keep: (e: SharedEvent) => boolean;
  members: Set<BatchListener>;
}

export class EventHub implements EventFeed {
  private readonly groups = new Map<string, Group>();
  private readonly recent = new Map<number, SharedEvent>();
  private pending: SharedEvent[] = [];
  private flushing: NodeJS.Immediate | undefined;
  private listenerCount = 0;
  private unkeyed = 0;
  private detach: (() => void) | undefined;
  /** Filter evaluations and batches built, for tests and profiles (one per group and event / flush). */
  readonly stats = { filterRuns: 0, batches: 0 };

  constructor(
    private readonly bus: EventsPort,
    private readonly schema: SchemaRegistry,
    /** A listener that throws must not break the bus or the other subscribers. */
    private readonly onError: (err: unknown) => void,
  ) {}

  /**
   * `fn` receives, after each burst of events, the ones `filter` keeps (all of them without a filter),
   * in id order, never an empty batch.
   */
  subscribe(fn: BatchListener, filter?: FeedFilter): () => void {
    const key = filter?.key ?? `\u0000${this.unkeyed++}`;
    let group = this.groups.get(key);
    if (group === undefined) {
      const keep = filter?.keep;
      group = { keep: keep === undefined ? () => true : (e) => keep(e), members: new Set() };
      this.groups.set(key, group);
    }
    const listener: BatchListener = (b) => fn(b); // one entry per call, even for the same fn
    group.members.add(listener);
    this.listenerCount++;
    this.detach ??= this.bus.subscribe((env) => this.publish(env));
    const members = group.members;
    return () => {
      if (!members.delete(listener)) return;
      this.listenerCount--;
      if (members.size === 0 && this.groups.get(key)?.members === members) this.groups.delete(key);
      if (this.listenerCount === 0 && this.detach !== undefined) {
        this.detach();
        this.detach = undefined;
        this.recent.clear();
        this.pending = [];
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
    return this.listenerCount;
  }

  private publish(env: EventEnvelope): void {
    const e = new SharedEvent(env, this.schema);
    this.recent.set(e.id, e);
    if (this.recent.size > RECENT_EVENTS_MAX) this.recent.delete(this.recent.keys().next().value!);
    this.pending.push(e);
    this.flushing ??= setImmediate(() => this.flush());
  }

  /** Hands every group the pending events its filter keeps. */
  private flush(): void {
    this.flushing = undefined;
    const events = this.pending;
    this.pending = [];
    for (const group of this.groups.values()) {
      const kept = this.kept(group, events);
      if (kept.length === 0) continue;
      const batch = new SharedBatch(kept);
      this.stats.batches++;
      for (const fn of group.members) {
        try {
          fn(batch);
        } catch (err) {
          this.onError(err);
        }
      }
    }
  }

  private kept(group: Group, events: SharedEvent[]): SharedEvent[] {
    const kept: SharedEvent[] = [];
    for (const e of events) {
      this.stats.filterRuns++;
      try {
        if (group.keep(e)) kept.push(e);
      } catch (err) {
        this.onError(err);
      }
    }
    return kept;
  }
}
