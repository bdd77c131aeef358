// The sending side of delivery (README "Delivery"): per webhook, a window of its oldest pending
// deliveries, attempted strictly one after the other in the order given; the first failure halts that
// webhook's lane (the rest of the window is not attempted) until the scheduler (worker.ts) hands it a
// new window under a new epoch, after the backoff. Outcomes are reported in batches, once per turn of
// the lane's event loop. The lane runs in a thread of its own (lane-thread.ts) so that a busy node
// thread (block execution, admission) costs one outcome batch per turn instead of one delivery per
// turn; tests that inject the HTTP client or resolver run it in the node's thread (lanes.ts).
// Nothing here touches the store: the scheduler records outcomes (at least once).

import type { Send, SendLimits } from './send.js';
import { webhookSignatures } from './signature.js';
import type { TargetResult } from './target.js';

export const DELIVERY_HEADERS = {
  webhook: 'x-ledger-webhook-id',
  event: 'x-ledger-event-id',
  delivery: 'x-ledger-delivery-id',
  attempt: 'x-ledger-delivery-attempt',
  timestamp: 'x-ledger-webhook-timestamp',
  signature: 'x-ledger-webhook-signature',
} as const;

export interface LaneItem {
  deliveryId: string;
  eventId: number;
  body: string;
  /** The attempt number this attempt carries (`x-ledger-delivery-attempt`). */
  attempt: number;
}

/** Deliveries for one webhook: a new epoch replaces the lane's window, the same epoch extends it. */
export interface LaneDeliver {
  type: 'deliver';
  hookId: string;
  epoch: number;
  url: string;
  secret?: string;
  /** A rotated-out secret: attempts sent before `previousUntilMs` are signed with it too. */
  previousSecret?: string;
  previousUntilMs?: number;
  items: LaneItem[];
}

/** The webhook's secrets changed (a rotation): the attempts not yet sent use the new ones. */
export interface LaneRekey {
  type: 'rekey';
  hookId: string;
  secrets: Secrets;
}

export interface LaneCancel {
  type: 'cancel';
  hookId: string;
}

export type ToLane = LaneDeliver | LaneCancel | LaneRekey;

/** The secrets a webhook signs with: the current one, and a rotated-out one until its overlap ends. */
export interface Secrets {
  secret?: string;
  previousSecret?: string;
  previousUntilMs?: number;
}

export interface LaneOutcome {
  hookId: string;
  epoch: number;
  deliveryId: string;
  ok: boolean;
  status?: number;
  error?: string;
}

export interface LaneDeps {
  check(url: string): Promise<TargetResult>;
  send: Send;
  limits: SendLimits;
  nowMs(): number;
  /** A batch of outcomes, in the order the attempts ended (per webhook: delivery order). */
  post(outcomes: LaneOutcome[]): void;
}

type Attempted = Pick<LaneOutcome, 'ok' | 'status' | 'error'>;

interface Queue {
  epoch: number;
  url: string;
  secrets: Secrets;
  items: LaneItem[];
  /** A failure ended this epoch: its later deliveries wait for a new epoch. */
  halted: boolean;
  running: boolean;
}

/** The secrets to sign an attempt sent at `timestampMs` with, newest first. */
export function signingSecrets(s: Secrets, timestampMs: number): string[] {
  const out: string[] = [];
  if (s.secret !== undefined) out.push(s.secret);
  if (s.previousSecret !== undefined && s.previousUntilMs !== undefined && timestampMs < s.previousUntilMs)
    out.push(s.previousSecret);
  return out;
}

export function deliveryHeaders(hookId: string, item: LaneItem, secrets: Secrets, timestampMs: number) {
  const h: Record<string, string> = {
    [DELIVERY_HEADERS.webhook]: hookId,
    [DELIVERY_HEADERS.event]: String(item.eventId),
    [DELIVERY_HEADERS.delivery]: item.deliveryId,
    [DELIVERY_HEADERS.attempt]: String(item.attempt),
    [DELIVERY_HEADERS.timestamp]: String(timestampMs),
  };
  const signing = signingSecrets(secrets, timestampMs);
  if (signing.length > 0) h[DELIVERY_HEADERS.signature] = webhookSignatures(signing, timestampMs, item.body);
  return h;
}

export class Lane {
  private readonly queues = new Map<string, Queue>();
  private readonly running = new Set<Promise<void>>();
  private outbox: LaneOutcome[] = [];
  private flushing = false;
  private stopped = false;

  constructor(private readonly deps: LaneDeps) {}

  take(msg: ToLane): void {
    if (this.stopped) return;
    if (msg.type === 'cancel') {
      this.queues.delete(msg.hookId);
      return;
    }
    if (msg.type === 'rekey') {
      const held = this.queues.get(msg.hookId);
      if (held !== undefined) held.secrets = msg.secrets;
      return;
    }
    let q = this.queues.get(msg.hookId);
    if (q !== undefined && (msg.epoch < q.epoch || (msg.epoch === q.epoch && q.halted))) return;
    const secrets: Secrets = {
      ...(msg.secret === undefined ? {} : { secret: msg.secret }),
      ...(msg.previousSecret === undefined ? {} : { previousSecret: msg.previousSecret }),
      ...(msg.previousUntilMs === undefined ? {} : { previousUntilMs: msg.previousUntilMs }),
    };
    if (q === undefined || msg.epoch > q.epoch) {
      q = { epoch: msg.epoch, url: msg.url, secrets, items: [], halted: false, running: false };
      this.queues.set(msg.hookId, q);
    } else q.secrets = secrets;
    q.items.push(...msg.items);
    if (!q.running) this.run(msg.hookId, q);
  }

  private run(hookId: string, q: Queue): void {
    q.running = true;
    const p = this.drain(hookId, q).finally(() => {
      q.running = false;
      this.running.delete(p);
    });
    this.running.add(p);
  }

  /** Attempts the queue's deliveries in order; stops at the first failure, a cancel or a stop. */
  private async drain(hookId: string, q: Queue): Promise<void> {
    while (!this.stopped && this.queues.get(hookId) === q && q.items.length > 0) {
      const item = q.items[0]!;
      const r = await this.attempt(hookId, q, item);
      q.items.shift();
      this.emit({ hookId, epoch: q.epoch, deliveryId: item.deliveryId, ...r });
      if (!r.ok) {
        q.items = [];
        q.halted = true;
      }
    }
  }

  private async attempt(hookId: string, q: Queue, item: LaneItem): Promise<Attempted> {
    try {
      const checked = await this.deps.check(q.url);
      if (!checked.ok) return { ok: false, error: `${checked.code}: ${JSON.stringify(checked.details)}` };
      const headers = deliveryHeaders(hookId, item, q.secrets, this.deps.nowMs());
      const o = await this.deps.send(checked.target, headers, item.body, this.deps.limits);
      if (o.ok) return { ok: true, status: o.status };
      return o.status === undefined
        ? { ok: false, error: o.error }
        : { ok: false, status: o.status, error: o.error };
    } catch (e) {
      return { ok: false, error: e instanceof Error ? e.message : String(e) };
    }
  }

  private emit(o: LaneOutcome): void {
    this.outbox.push(o);
    if (this.flushing) return;
    this.flushing = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.flushing = false;
    if (this.outbox.length === 0) return;
    const out = this.outbox;
    this.outbox = [];
    this.deps.post(out);
  }

  /** Takes nothing more; lets the attempts in flight end (bounded by webhooks.timeout_ms) and reports them. */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.allSettled([...this.running]);
    this.flush();
  }
}
