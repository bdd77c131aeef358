// From the event bus to the webhook queues (README "Durability"). Every event the node publishes is
// matched against each active webhook's filter (the event-stream filter language, event-filter.ts) and
// queued for every webhook that keeps it. The intake cursor `seen` (the newest event id looked at) is
// stored with the queued deliveries in the same group commit, so a restart resumes after it: events
// still in the bus history are matched again from `seen` (at-least-once, never a gap), and a restart
// right after a commit finds the bus starting at that commit's Block Applied, which `seen` already covers.

import { projectEvent } from '../../gateway/event-filter.js';
import { EventCodec, type EventEnvelope } from '../../model/events.js';
import type { WebhookEventFeed, WebhooksPort } from './port.js';

import type { EnqueueOutcome, Registry } from './registry.js';

/** Reading a gap back from the chain (port.ts `replay`), and its cap (webhooks.recovery_blocks_max). */
export interface GapRecovery {
  replay: NonNullable<WebhooksPort['replay']>;
  /** Blocks a read-back after `afterId` would re-execute. */
  blocks(afterId: number): number;
  blocksMax: number;
}

export const META_SEEN = 'seen';
/** How long the cursor may lag on disk when no delivery was queued (a restart re-matches those events). */
export const SEEN_LAZY_MS = 1000;

/** The delivery body: the event as the WebSocket JSON message carries it, `{"id":…,"event":…}`. */
export function deliveryBody(env: EventEnvelope): string {
  return `{"id":${env.id},"event":${JSON.stringify(EventCodec.toJson(env.event))}}`;
}

export interface IntakeHooks {
  nowMs(): number;
  /** After a batch of events is queued (and its write issued): wake the worker. */
  queued(): void;
  counted(outcome: EnqueueOutcome): void;
  /** Events that could not be read back after a restart (bus history no longer holds them). */
  missed(fromId: number, toId: number): void;
  failed(e: unknown): void;
}

export class Intake {
  private seen: number;
  private unsubscribe: () => void = () => {};
  private scheduled = false;
  private stopped = false;
  private lazy: NodeJS.Timeout | undefined;
  private recovering = false;
  /** The read-back of a gap, while it runs. */
  recovery: Promise<void> = Promise.resolve();

  constructor(
    private readonly registry: Registry,
    private readonly feed: WebhookEventFeed,
    private readonly hooks: IntakeHooks,
    private readonly recoverGap?: GapRecovery,
  ) {
    // Without webhooks there is nothing to recover: start from the feed's present.
    const stored = registry.store.meta<number>(META_SEEN);
    this.seen = stored === undefined || registry.hooks.size === 0 ? feed.lastId() : stored;
  }

  start(): void {
    this.unsubscribe = this.feed.subscribe((e) => {
      if (!this.recovering) this.take(e);
    });
    this.catchUp(true);
  }

  /**
   * Matches what the bus still holds after `seen`. When it no longer holds it (a crash between a block's
   * fsync and ours, or a cursor that lagged), the port reads the committed events back from the chain;
   * live events are ignored meanwhile and taken from the bus history afterwards (bounded: nothing is
   * buffered here).
   */
  private catchUp(first: boolean): void {
    const back = this.feed.since(this.seen);
    if (back !== 'gone') {
      for (const e of back) this.take(e);
      return;
    }
    const r = this.recoverGap;
    const blocks = r?.blocks(this.seen) ?? 0;
    if (!first || r === undefined || blocks > r.blocksMax) {
      const why =
        first && r !== undefined
          ? `: reading back ${blocks} blocks exceeds webhooks.recovery_blocks_max`
          : '';
      this.lost(this.seen, this.feed.lastId(), why);
      return;
    }
    this.recovering = true;
    this.recovery = r
      .replay(this.seen, (events) => {
        for (const e of events) this.take(e);
      })
      .then(
        () => this.recovered(),
        (e) => {
          this.hooks.failed(e);
          this.recovered();
        },
      );
  }

  /**
   * Events after `from` up to `to` that cannot be read back: logged, and recorded on every active webhook
   * (`last_error`), so that an owner sees the gap; the intake goes on from `to`.
   */
  private lost(from: number, to: number, why: string): void {
    this.hooks.missed(from, to);
    const error = `events after ${from} up to ${to} were not read back after a restart${why}`;
    for (const hook of this.registry.hooks.values()) {
      if (!hook.record.active || to <= hook.record.fromEventId) continue;
      hook.record.lastError = error;
      this.registry.store.putHook(hook.record);
    }
    this.seen = to;
    this.flushSoon();
  }

  private recovered(): void {
    this.recovering = false;
    if (!this.stopped) this.catchUp(false);
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe();
    clearTimeout(this.lazy);
    this.lazy = undefined;
    this.registry.store.putMeta(META_SEEN, this.seen); // written by the store's close
  }

  /** The newest event id the intake has matched. */
  get seenId(): number {
    return this.seen;
  }

  private take(env: EventEnvelope): void {
    if (env.id <= this.seen) return;
    this.seen = env.id;
    if (this.registry.hooks.size === 0) return;
    let body: string | undefined;
    let fields: ReturnType<typeof projectEvent> | undefined;
    const now = this.hooks.nowMs();
    for (const hook of this.registry.hooks.values()) {
      if (!hook.record.active || env.id <= hook.record.fromEventId) continue;
      fields ??= projectEvent(env.event);
      if (!hook.match(fields)) continue;
      body ??= deliveryBody(env);
      this.hooks.counted(this.registry.enqueue(hook, env.id, body, now));
    }
    // Only queued deliveries need the cursor on disk with them; an event nobody matched moves it lazily.
    if (body !== undefined) this.flushSoon();
    else this.flushLater();
  }

  private flushLater(): void {
    if (this.lazy !== undefined || this.stopped) return;
    this.lazy = setTimeout(() => {
      this.lazy = undefined;
      this.flushSoon();
    }, SEEN_LAZY_MS);
    this.lazy.unref();
  }

  /** One group commit per turn of the event loop (a block's events arrive in one synchronous burst). */
  private flushSoon(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.stopped) return;
      this.registry.store.putMeta(META_SEEN, this.seen);
      this.registry.store.write().then(
        () => undefined,
        (e) => this.hooks.failed(e),
      );
      this.hooks.queued();
    });
  }
}
