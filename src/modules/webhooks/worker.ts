// The delivery scheduler (README "Delivery"): at least once and in order per webhook. A webhook's
// oldest pending deliveries (up to webhooks.delivery_window) are handed to its lane (lane.ts), which
// attempts them one after the other and stops at the first failure; the scheduler records each outcome
// in delivery order. A failed attempt is retried after an exponential backoff with jitter (signature.ts
// `backoffMs`, webhooks.retry_base_ms .. retry_max_delay_ms) until webhooks.attempts_max attempts, then
// the delivery becomes a dead letter and the next one goes. At most webhooks.in_flight_max webhooks
// have deliveries handed out at once, and at most webhooks.in_flight_per_owner_max of one owner (so that
// one owner's slow or dead targets cannot hold every slot). One timer wakes the scheduler at the earliest retry time.

import type { LaneItem, LaneOutcome, Secrets } from './lane.js';
import type { Lanes } from './lanes.js';
import type { Hook, Registry } from './registry.js';
import { backoffMs } from './signature.js';

export { DELIVERY_HEADERS } from './lane.js';

export type DeliveryOutcome = 'delivered' | 'retried' | 'dead';

export interface WorkerOptions {
  attemptsMax: number;
  retryBaseMs: number;
  retryMaxDelayMs: number;
  /** webhooks.in_flight_max: webhooks with deliveries handed to their lane at once. */
  inFlightMax: number;
  /** webhooks.in_flight_per_owner_max: of those, webhooks of one owner (Hook.ownerKey). */
  inFlightPerOwnerMax: number;
  /** webhooks.delivery_window: pending deliveries of one webhook handed to its lane ahead. */
  windowMax: number;
  nowMs(): number;
  random(): number;
  counted(outcome: DeliveryOutcome): void;
  failed(e: unknown): void;
}

export class Worker {
  private timer: NodeJS.Timeout | undefined;
  private scheduled = false;
  private stopped = false;

  constructor(
    private readonly registry: Registry,
    private readonly lanes: Lanes,
    private readonly opts: WorkerOptions,
  ) {
    lanes.onOutcomes = (outcomes) => this.settle(outcomes);
    lanes.onLost = (e) => this.lost(e);
    registry.onRemoved = (id) => lanes.post({ type: 'cancel', hookId: id });
    // The delivery thread takes a while to start: start it with the first webhook, not its first event.
    registry.onAdded = () => lanes.warm();
    if (registry.hooks.size > 0) lanes.warm();
  }

  /** Looks for due deliveries after pending I/O (coalesced). */
  wake(): void {
    if (this.scheduled || this.stopped) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.tick();
    });
  }

  private tick(): void {
    if (this.stopped) return;
    const now = this.opts.nowMs();
    let earliest = Number.POSITIVE_INFINITY;
    let inFlight = 0;
    const byOwner = new Map<string, number>();
    for (const hook of this.registry.hooks.values())
      if (hook.dispatched > 0) {
        inFlight++;
        byOwner.set(hook.ownerKey, (byOwner.get(hook.ownerKey) ?? 0) + 1);
      }
    for (const hook of this.registry.hooks.values()) {
      const head = hook.pending[0];
      if (head === undefined) continue;
      if (hook.dispatched > 0) this.hand(hook);
      else if (head.nextAtMs > now) earliest = Math.min(earliest, head.nextAtMs);
      else if (inFlight < this.opts.inFlightMax) {
        const mine = byOwner.get(hook.ownerKey) ?? 0;
        if (mine >= this.opts.inFlightPerOwnerMax) continue; // settle() wakes the scheduler again
        inFlight++;
        byOwner.set(hook.ownerKey, mine + 1);
        this.hand(hook);
      }
    }
    clearTimeout(this.timer);
    if (earliest !== Number.POSITIVE_INFINITY) {
      this.timer = setTimeout(() => this.wake(), Math.max(1, earliest - now));
      this.timer.unref();
    }
  }

  /** Hands the lane the pending deliveries after those it holds, up to the window. */
  private hand(hook: Hook): void {
    const from = hook.dispatched;
    const to = Math.min(hook.pending.length, this.opts.windowMax);
    if (to <= from) return;
    const items: LaneItem[] = hook.pending.slice(from, to).map((d) => ({
      deliveryId: d.id,
      eventId: d.eventId,
      body: d.body,
      attempt: d.attempts + 1,
    }));
    hook.dispatched = to;
    const r = hook.record;
    this.lanes.post({
      type: 'deliver',
      hookId: r.id,
      epoch: hook.epoch,
      url: r.url,
      ...this.secrets(hook),
      items,
    });
  }

  /** The webhook's signing secrets now; a rotated-out secret whose overlap ended is dropped from the record. */
  private secrets(hook: Hook): Secrets {
    const r = hook.record;
    this.registry.dropExpiredSecret(hook, this.opts.nowMs());
    return {
      ...(r.secret === undefined ? {} : { secret: r.secret }),
      ...(r.previousSecret === undefined ? {} : { previousSecret: r.previousSecret }),
      ...(r.previousSecretUntilMs === undefined ? {} : { previousUntilMs: r.previousSecretUntilMs }),
    };
  }

  /** The webhook's secret was rotated: attempts its lane holds are signed with the new secrets. */
  rekeyed(hook: Hook): void {
    this.lanes.post({ type: 'rekey', hookId: hook.record.id, secrets: this.secrets(hook) });
  }

  /** Records a batch of outcomes: each is its webhook's head delivery (the lanes keep the order). */
  private settle(outcomes: LaneOutcome[]): void {
    // Also while stopping: the attempts that end then are recorded before the store closes (family.ts).
    for (const o of outcomes) {
      const hook = this.registry.hooks.get(o.hookId);
      // The webhook was removed, or the outcome belongs to a window withdrawn since: nothing to record.
      if (hook === undefined || hook.epoch !== o.epoch) continue;
      const d = hook.pending[0];
      if (d === undefined || d.id !== o.deliveryId) {
        this.opts.failed(new Error(`webhook ${o.hookId}: outcome of ${o.deliveryId} out of order`));
        this.withdraw(hook);
        continue;
      }
      d.attempts++;
      hook.dispatched--;
      const now = this.opts.nowMs();
      if (o.ok) {
        this.registry.delivered(hook, d, o.status ?? 200, now);
        this.opts.counted('delivered');
        continue;
      }
      const retry = d.attempts < this.opts.attemptsMax;
      const delay = backoffMs(d.attempts, this.opts.retryBaseMs, this.opts.retryMaxDelayMs, this.opts.random);
      d.nextAtMs = now;
      this.registry.failed(hook, d, o.error ?? 'failed', o.status, retry ? now + delay : undefined);
      this.opts.counted(retry ? 'retried' : 'dead');
      this.withdraw(hook); // the lane halted this epoch at the failure
    }
    // Not awaited: the outcomes reach the disk with the next group commit, while the next attempts go.
    // A crash before that repeats deliveries (at least once) and never skips one.
    this.registry.store.write().catch((e) => this.opts.failed(e));
    this.wake();
  }

  /** Forgets what the lane holds for `hook`: the next window starts again at its head, in a new epoch. */
  private withdraw(hook: Hook): void {
    hook.dispatched = 0;
    hook.epoch++;
  }

  /**
   * The lanes lost their state (their thread died): every webhook starts again at its head (a delivery
   * whose outcome was lost is repeated: at least once), after retry_base_ms, so that a thread that cannot
   * start is not restarted in a tight loop.
   */
  private lost(e: unknown): void {
    this.opts.failed(e);
    for (const hook of this.registry.hooks.values()) this.withdraw(hook);
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.wake(), this.opts.retryBaseMs);
    this.timer.unref();
  }

  /** Stops scheduling; lets attempts in flight finish (bounded by webhooks.timeout_ms). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.lanes.close();
  }
}
