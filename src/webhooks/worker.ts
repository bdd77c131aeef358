// The delivery worker (README "Delivery"): at least once and in order per webhook. Each webhook has at
// most one attempt in flight, always its oldest pending delivery; a failed attempt is retried after an
// exponential backoff with jitter (signature.ts `backoffMs`, webhooks.retry_base_ms .. retry_max_delay_ms)
// until webhooks.attempts_max attempts, then the delivery becomes a dead letter and the next one goes.
// The target is checked again before every attempt and the connection goes to the checked address
// (target.ts). One timer wakes the worker at the earliest retry time.

import { assert } from '../util/assert.js';
import type { Hook, Registry } from './registry.js';
import type { Send, SendLimits } from './send.js';
import { backoffMs, webhookSignature } from './signature.js';
import type { Delivery } from './store.js';
import type { TargetChecker } from './target.js';

export type DeliveryOutcome = 'delivered' | 'retried' | 'dead';

export interface WorkerOptions {
  attemptsMax: number;
  retryBaseMs: number;
  retryMaxDelayMs: number;
  send: SendLimits;
  nowMs(): number;
  random(): number;
  counted(outcome: DeliveryOutcome): void;
  failed(e: unknown): void;
}

export const DELIVERY_HEADERS = {
  webhook: 'x-ledger-webhook-id',
  event: 'x-ledger-event-id',
  delivery: 'x-ledger-delivery-id',
  attempt: 'x-ledger-delivery-attempt',
  timestamp: 'x-ledger-webhook-timestamp',
  signature: 'x-ledger-webhook-signature',
} as const;

export class Worker {
  private timer: NodeJS.Timeout | undefined;
  private scheduled = false;
  private stopped = false;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly registry: Registry,
    private readonly targets: TargetChecker,
    private readonly send: Send,
    private readonly opts: WorkerOptions,
  ) {}

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
    for (const hook of this.registry.hooks.values()) {
      const head = hook.pending[0];
      if (hook.busy || head === undefined) continue;
      if (head.nextAtMs <= now) this.start(hook, head);
      else earliest = Math.min(earliest, head.nextAtMs);
    }
    clearTimeout(this.timer);
    if (earliest !== Number.POSITIVE_INFINITY) {
      this.timer = setTimeout(() => this.wake(), Math.max(1, earliest - now));
      this.timer.unref();
    }
  }

  private start(hook: Hook, d: Delivery): void {
    hook.busy = true;
    const p = this.attempt(hook, d)
      .catch((e) => this.opts.failed(e))
      .finally(() => {
        hook.busy = false;
        this.inFlight.delete(p);
        this.wake();
      });
    this.inFlight.add(p);
  }

  private headers(hook: Hook, d: Delivery, timestampMs: number): Record<string, string> {
    const h: Record<string, string> = {
      [DELIVERY_HEADERS.webhook]: hook.record.id,
      [DELIVERY_HEADERS.event]: String(d.eventId),
      [DELIVERY_HEADERS.delivery]: d.id,
      [DELIVERY_HEADERS.attempt]: String(d.attempts),
      [DELIVERY_HEADERS.timestamp]: String(timestampMs),
    };
    const secret = hook.record.secret;
    if (secret !== undefined) h[DELIVERY_HEADERS.signature] = webhookSignature(secret, timestampMs, d.body);
    return h;
  }

  private async attempt(hook: Hook, d: Delivery): Promise<void> {
    assert(hook.pending[0] === d, 'a webhook delivers its oldest pending delivery first');
    d.attempts++;
    const checked = await this.targets.check(hook.record.url);
    const outcome = checked.ok
      ? await this.send(checked.target, this.headers(hook, d, this.opts.nowMs()), d.body, this.opts.send)
      : { ok: false as const, error: `${checked.code}: ${JSON.stringify(checked.details)}` };
    // The webhook was removed (or the worker stopped) while the attempt ran: nothing to record.
    if (this.stopped || this.registry.hooks.get(hook.record.id) !== hook) return;
    const now = this.opts.nowMs();
    if (outcome.ok) {
      this.registry.delivered(hook, d, outcome.status, now);
      this.opts.counted('delivered');
    } else {
      const retry = d.attempts < this.opts.attemptsMax;
      const delay = backoffMs(d.attempts, this.opts.retryBaseMs, this.opts.retryMaxDelayMs, this.opts.random);
      d.nextAtMs = now;
      this.registry.failed(hook, d, outcome.error, outcome.status, retry ? now + delay : undefined);
      this.opts.counted(retry ? 'retried' : 'dead');
    }
    // Not awaited: the outcome reaches the disk with the next group commit, while the next attempt goes.
    // A crash before that repeats a delivery (at least once) and never skips one.
    this.registry.store.write().catch((e) => this.opts.failed(e));
  }

  /** Stops scheduling; lets attempts in flight finish (bounded by webhooks.timeout_ms). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await Promise.allSettled([...this.inFlight]);
  }
}
