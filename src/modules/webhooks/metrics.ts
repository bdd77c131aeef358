// Webhook series: deliveries by outcome (a counter; fixed label set) and the queue depth and webhook
// count (gauges read when scraped).

import { Counter, Gauge, type Metric, type Registry as PromRegistry } from 'prom-client';
import type { EnqueueOutcome, Registry, ShedReason } from './registry.js';
import type { DeliveryOutcome } from './worker.js';

export const DELIVERY_OUTCOMES = ['delivered', 'retried', 'dead', 'dropped'] as const;

export interface WebhookMetrics {
  count(outcome: DeliveryOutcome | EnqueueOutcome): void;
  /** A pending delivery dead-lettered to make room in its owner's share (or the node total). */
  shed(reason: ShedReason): void;
  install(registry: PromRegistry): void;
}

export function webhookMetrics(reg: Registry): WebhookMetrics {
  const deliveries = new Counter({
    name: 'webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome (delivered; retried: failed, will retry; dead: failed for the last time), and events dropped because a webhook queue was full.',
    labelNames: ['outcome'],
    registers: [],
  });
  for (const outcome of DELIVERY_OUTCOMES) deliveries.inc({ outcome }, 0);
  const shed = new Counter({
    name: 'webhook_owner_shed_total',
    help: "Pending webhook deliveries dead-lettered to make room: the owner's own oldest, when its share (webhooks.queue_per_owner_max; reason owner_share) or the node total (webhooks.queue_total_max; reason total, the owner holding the most) was full.",
    labelNames: ['reason'],
    registers: [],
  });
  for (const reason of ['owner_share', 'total']) shed.inc({ reason }, 0);
  const depth = new Gauge({
    name: 'webhook_queue_depth',
    help: 'Webhook deliveries pending over all webhooks of this node.',
    registers: [],
    collect() {
      this.set(reg.queued);
    },
  });
  const hooks = new Gauge({
    name: 'webhooks',
    help: 'Webhooks registered on this node.',
    registers: [],
    collect() {
      this.set(reg.hooks.size);
    },
  });
  return {
    count(outcome) {
      if (outcome === 'queued') return;
      deliveries.inc({ outcome });
    },
    shed(reason) {
      shed.inc({ reason });
    },
    install(registry) {
      for (const m of [deliveries, shed, depth, hooks] as Metric[]) registry.registerMetric(m);
    },
  };
}
