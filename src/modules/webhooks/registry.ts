// The webhooks of this node and their delivery queues, in memory and mirrored to the store (store.ts).
// Invariants: a webhook's pending deliveries are kept in `seq` order and delivered in that order, one at a
// time (worker.ts); every queue is bounded (webhooks.queue_per_webhook_max, queue_total_max), and so are
// the recent and dead-letter lists (recent_per_webhook_max, dead_letters_per_webhook_max): the oldest
// is forgotten. Owners (the signing key of the registering account, or the operator) have their own share
// of the queue (queue_per_owner_max): an owner over its share, or the owner holding the most when the
// node total is full, loses its OWN oldest pending delivery (dead-lettered, can be replayed), never
// another owner's event. Nothing here reaches the network.

import { randomUUID } from 'node:crypto';
import type { EventMatcher } from '../../gateway/event-filter.js';
import { parseAccountId } from '../../model/ids.js';
import type { Delivery, WebhookRecord, WebhookStore } from './store.js';

export interface RegistryLimits {
  webhooksMax: number;
  perOwnerMax: number;
  queuePerWebhookMax: number;
  queueTotalMax: number;
  /** webhooks.queue_per_owner_max: pending deliveries over every webhook of one owner. */
  queuePerOwnerMax: number;
  deadLettersPerWebhookMax: number;
  recentPerWebhookMax: number;
}

/** Why an owner lost its oldest pending delivery: its own share was full, or the node total was. */
export type ShedReason = 'owner_share' | 'total';

/**
 * Who a webhook counts against: the signing key of the owning account (one key under several domains is
 * one owner), or `operator`.
 */
export function ownerKeyOf(owner: string): string {
  return parseAccountId(owner)?.signatory ?? owner;
}

export interface Hook {
  record: WebhookRecord;
  /** ownerKeyOf(record.owner). */
  ownerKey: string;
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

/** The event kind of a test delivery (POST /v1/webhooks/{id}/test). */
export const TEST_EVENT_KIND = 'webhook.test';

export class Registry {
  readonly hooks = new Map<string, Hook>();
  /** Told of every registration (the worker readies its lanes) and removal (it cancels the webhook's lane). */
  onAdded: (id: string) => void = () => {};
  onRemoved: (id: string) => void = () => {};
  /** Told of every pending delivery shed to make room (family.ts counts it: webhook_owner_shed_total). */
  onShed: (reason: ShedReason) => void = () => {};
  private seq = 0;
  private pendingTotal = 0;
  private readonly pendingByOwner = new Map<string, number>();

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
      if (d.state === 'pending') this.counted(h, 1);
    }
  }

  private counted(hook: Hook, n: number): void {
    this.pendingTotal += n;
    const left = (this.pendingByOwner.get(hook.ownerKey) ?? 0) + n;
    if (left > 0) this.pendingByOwner.set(hook.ownerKey, left);
    else this.pendingByOwner.delete(hook.ownerKey);
  }

  /** Pending deliveries over every webhook of the owner `ownerKey` (ownerKeyOf). */
  pendingOf(ownerKey: string): number {
    return this.pendingByOwner.get(ownerKey) ?? 0;
  }

  private attach(record: WebhookRecord): Hook {
    const hook = {
      record,
      ownerKey: ownerKeyOf(record.owner),
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

  /** Webhooks of the owner `ownerKey` (ownerKeyOf: every account id of one signing key counts). */
  ownedBy(ownerKey: string): number {
    let n = 0;
    for (const h of this.hooks.values()) if (h.ownerKey === ownerKey) n++;
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
    this.counted(h, -h.pending.length);
    this.store.removeHook(id);
    for (const d of [...h.pending, ...h.recent, ...h.dead]) this.store.removeDelivery(d.id);
  }

  /**
   * Queues one event for `hook`. Its owner over its share (or the biggest owner, when the node total is
   * full) first loses its oldest pending delivery not yet handed out; when there is none, or the webhook's
   * own queue is full, the event is dropped (counted on the webhook).
   */
  enqueue(hook: Hook, eventId: number, body: string, nowMs: number): EnqueueOutcome {
    let room = hook.pending.length < this.limits.queuePerWebhookMax;
    if (room && this.pendingOf(hook.ownerKey) >= this.limits.queuePerOwnerMax)
      room = this.shedOldest(hook.ownerKey, 'owner_share', nowMs);
    else if (room && this.pendingTotal >= this.limits.queueTotalMax)
      room = this.shedOldest(this.biggestOwner(), 'total', nowMs);
    if (!room) {
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
    this.counted(hook, 1);
    this.store.putDelivery(d);
    return 'queued';
  }

  /**
   * Queues a test delivery (`webhook.test`, event id 0: no ledger event has it) at the end of the
   * webhook's queue, whatever its filter and `active`; it goes through the same attempts, retries and dead
   * letters as an event. Bounded by the same queue limits (`dropped` when there is no room).
   */
  enqueueTest(hook: Hook, nowMs: number): Delivery | undefined {
    const body = JSON.stringify({
      id: 0,
      event: { kind: TEST_EVENT_KIND, webhook_id: hook.record.id, requested_ms: nowMs },
    });
    if (this.enqueue(hook, 0, body, nowMs) === 'dropped') return undefined;
    return hook.pending[hook.pending.length - 1];
  }

  /**
   * Replaces the secret: the old one (if any) is kept for signing as well until `nowMs + overlapMs`
   * (0: dropped at once). A rotation during an overlap drops the older secret.
   */
  rotateSecret(hook: Hook, secret: string, overlapMs: number, nowMs: number): void {
    const r = hook.record;
    const old = r.secret;
    r.secret = secret;
    r.secretRotatedMs = nowMs;
    if (old !== undefined && overlapMs > 0) {
      r.previousSecret = old;
      r.previousSecretUntilMs = nowMs + overlapMs;
    } else {
      delete r.previousSecret;
      delete r.previousSecretUntilMs;
    }
    this.store.putHook(r);
  }

  /** Drops a rotated-out secret once its overlap has ended (written with the next group commit). */
  dropExpiredSecret(hook: Hook, nowMs: number): void {
    const r = hook.record;
    if (r.previousSecretUntilMs === undefined || nowMs < r.previousSecretUntilMs) return;
    delete r.previousSecret;
    delete r.previousSecretUntilMs;
    this.store.putHook(r);
  }

  private biggestOwner(): string {
    let best = '';
    let most = -1;
    for (const [key, n] of this.pendingByOwner)
      if (n > most || (n === most && key < best)) [best, most] = [key, n];
    return best;
  }

  /**
   * Dead-letters the oldest pending delivery of `ownerKey` that its lane does not hold (worker.ts hands
   * out the head of a queue; those stay, so order and at-least-once hold for what is in flight).
   */
  private shedOldest(ownerKey: string, reason: ShedReason, nowMs: number): boolean {
    let victim: Hook | undefined;
    for (const h of this.hooks.values()) {
      if (h.ownerKey !== ownerKey) continue;
      const d = h.pending[h.dispatched];
      if (d !== undefined && (victim === undefined || d.seq < victim.pending[victim.dispatched]!.seq))
        victim = h;
    }
    if (victim === undefined) return false;
    const d = victim.pending[victim.dispatched]!;
    const why = reason === 'owner_share' ? 'webhooks.queue_per_owner_max' : 'webhooks.queue_total_max';
    this.shift(victim, d);
    d.state = 'dead';
    d.doneMs = nowMs;
    d.lastError = `shed: the owner's oldest pending delivery made room (${why})`;
    victim.record.lastError = `queue full: delivery of event ${d.eventId} dead-lettered (${why})`;
    this.store.putHook(victim.record);
    this.keep(victim.dead, d, this.limits.deadLettersPerWebhookMax);
    this.onShed(reason);
    return true;
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
    this.counted(hook, 1);
    this.store.putDelivery(d);
    return d;
  }

  private shift(hook: Hook, d: Delivery): void {
    if (hook.pending[0] === d) hook.pending.shift();
    else hook.pending.splice(hook.pending.indexOf(d), 1);
    this.counted(hook, -1);
  }

  private keep(list: Delivery[], d: Delivery, max: number): void {
    list.push(d);
    this.store.putDelivery(d);
    while (list.length > max) this.store.removeDelivery(list.shift()!.id);
  }
}
