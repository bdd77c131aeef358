// The webhooks of this node and their delivery queues, in memory and mirrored to the store (store.ts).
// Invariants: a webhook's pending deliveries are kept in `seq` order and delivered in that order, one at a
// time (worker.ts); every queue is bounded (webhooks.queue_per_webhook_max, queue_total_max), and so are
// the recent and dead-letter lists (recent_per_webhook_max, dead_letters_per_webhook_max): the oldest
// is forgotten. Nothing here reaches the network.

import { randomUUID } from 'node:crypto';
import type { EventMatcher } from '../gateway/event-filter.js';
import type { Delivery, WebhookRecord, WebhookStore } from './store.js';

export interface RegistryLimits {
  webhooksMax: number;
  perOwnerMax: number;
  queuePerWebhookMax: number;
  queueTotalMax: number;
  deadLettersPerWebhookMax: number;
  recentPerWebhookMax: number;
}

export interface Hook {
  record: WebhookRecord;
  match: EventMatcher;
  pending: Delivery[];
  recent: Delivery[];
  dead: Delivery[];
  /** How many of the oldest pending deliveries are handed to the lane (worker.ts; 0: none in flight). */
  dispatched: number;
  /** Bumped when the lane's window is withdrawn (a failure): outcomes of an older epoch are ignored. */
  epoch: number;
}

export type EnqueueOutcome = 'queued' | 'dropped';

export class Registry {
  readonly hooks = new Map<string, Hook>();
  /** Told of every registration (the worker readies its lanes) and removal (it cancels the webhook's lane). */
  onAdded: (id: string) => void = () => {};
  onRemoved: (id: string) => void = () => {};
  private seq = 0;
  private pendingTotal = 0;

  constructor(
    readonly store: WebhookStore,
    readonly limits: RegistryLimits,
    private readonly compile: (filter: unknown) => EventMatcher,
  ) {
    for (const record of store.loadHooks()) this.attach(record);
    const all = store.loadDeliveries().sort((a, b) => a.seq - b.seq);
    for (const d of all) {
      this.seq = Math.max(this.seq, d.seq);
      const h = this.hooks.get(d.webhookId);
      if (h === undefined) {
        store.removeDelivery(d.id); // left behind by a removal that did not finish
        continue;
      }
      const list = d.state === 'pending' ? h.pending : d.state === 'dead' ? h.dead : h.recent;
      list.push(d);
      if (d.state === 'pending') this.pendingTotal++;
    }
  }

  private attach(record: WebhookRecord): Hook {
    const hook = {
      record,
      match: this.compile(record.filter),
      pending: [],
      recent: [],
      dead: [],
      dispatched: 0,
      epoch: 0,
    };
    this.hooks.set(record.id, hook);
    return hook;
  }

  get queued(): number {
    return this.pendingTotal;
  }

  ownedBy(owner: string): number {
    let n = 0;
    for (const h of this.hooks.values()) if (h.record.owner === owner) n++;
    return n;
  }

  /** Adds a registration; the caller checks the limits first and awaits `store.write()`. */
  add(record: WebhookRecord): Hook {
    this.store.putHook(record);
    const hook = this.attach(record);
    this.onAdded(record.id);
    return hook;
  }

  remove(id: string): void {
    const h = this.hooks.get(id);
    if (h === undefined) return;
    this.hooks.delete(id);
    this.onRemoved(id);
    this.pendingTotal -= h.pending.length;
    this.store.removeHook(id);
    for (const d of [...h.pending, ...h.recent, ...h.dead]) this.store.removeDelivery(d.id);
  }

  /** Queues one event for `hook`, or drops it (counted on the webhook) when a queue is full. */
  enqueue(hook: Hook, eventId: number, body: string, nowMs: number): EnqueueOutcome {
    if (
      hook.pending.length >= this.limits.queuePerWebhookMax ||
      this.pendingTotal >= this.limits.queueTotalMax
    ) {
      hook.record.dropped++;
      hook.record.lastError = `queue full: event ${eventId} dropped`;
      this.store.putHook(hook.record);
      return 'dropped';
    }
    const d: Delivery = {
      id: randomUUID(),
      webhookId: hook.record.id,
      seq: ++this.seq,
      eventId,
      body,
      attempts: 0,
      nextAtMs: nowMs,
      createdMs: nowMs,
      state: 'pending',
    };
    hook.pending.push(d);
    this.pendingTotal++;
    this.store.putDelivery(d);
    return 'queued';
  }

  /** The head delivery succeeded: it leaves the queue for the recent list; the cursor moves. */
  delivered(hook: Hook, d: Delivery, status: number, nowMs: number): void {
    this.shift(hook, d);
    d.state = 'delivered';
    d.lastStatus = status;
    d.doneMs = nowMs;
    delete d.lastError;
    if (d.eventId > hook.record.lastDeliveredEventId) hook.record.lastDeliveredEventId = d.eventId;
    this.store.putHook(hook.record);
    this.keep(hook.recent, d, this.limits.recentPerWebhookMax);
  }

  /** The head delivery failed; `retryAtMs` undefined: attempts exhausted, it becomes a dead letter. */
  failed(hook: Hook, d: Delivery, error: string, status: number | undefined, retryAtMs?: number): void {
    d.lastError = error;
    if (status === undefined) delete d.lastStatus;
    else d.lastStatus = status;
    hook.record.lastError = error;
    this.store.putHook(hook.record);
    if (retryAtMs !== undefined) {
      d.nextAtMs = retryAtMs;
      this.store.putDelivery(d);
      return;
    }
    this.shift(hook, d);
    d.state = 'dead';
    d.doneMs = d.nextAtMs;
    this.keep(hook.dead, d, this.limits.deadLettersPerWebhookMax);
  }

  /** A dead letter goes back to the end of its webhook's queue, attempts reset, same delivery id. */
  replay(hook: Hook, deliveryId: string, nowMs: number): Delivery | undefined {
    const i = hook.dead.findIndex((d) => d.id === deliveryId);
    if (i < 0) return undefined;
    const d = hook.dead.splice(i, 1)[0]!;
    Object.assign(d, { state: 'pending', attempts: 0, nextAtMs: nowMs, seq: ++this.seq });
    delete d.doneMs;
    hook.pending.push(d);
    this.pendingTotal++;
    this.store.putDelivery(d);
    return d;
  }

  private shift(hook: Hook, d: Delivery): void {
    if (hook.pending[0] === d) hook.pending.shift();
    else hook.pending.splice(hook.pending.indexOf(d), 1);
    this.pendingTotal--;
  }

  private keep(list: Delivery[], d: Delivery, max: number): void {
    list.push(d);
    this.store.putDelivery(d);
    while (list.length > max) this.store.removeDelivery(list.shift()!.id);
  }
}
