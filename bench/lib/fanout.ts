// The event fan-out measurement behind `fanout_p99_ms` and `fanout_bytes_per_subscriber` (goals
// for 10,000 SSE + 1,000 WebSocket subscribers, commit events at the peak rate; p99 delivery ≤
// 100 ms, ≤ 20 KiB per idle subscriber). A node in its own process with its stream limits raised to
// fit the subscribers; its memory is read after a full GC before and after connecting the idle
// subscribers; then transfers are submitted at full speed and every block commit event is timed from
// the node's publish to each subscriber's receipt. The subscribers run in SUBSCRIBER_PROCESSES
// processes of their own (subscriber-pool.ts), apart from the load generator (the bench process) and
// the node; on this 2-core machine they still share the cores, so client-side delays count against the
// node and the figure stays an upper bound. Both sides read the epoch clock as
// `performance.timeOrigin + performance.now()`. Every subscriber's deliveries are checked: each block
// committed during the load, once, in height order.

import { httpPeak } from './http-load.js';
import { type HttpNode, startHttpNode } from './http-node.js';
import { type SubscriberPool, startSubscriberPool } from './subscriber-pool.js';
import { BUCKETS_PER_MS, type ReceiptReport } from './subscribers.js';
import { percentile, sleep } from './timing.js';

/** Time given to settle (connections idle, last deliveries in) before each reading. */
const SETTLE_MS = 1_500;
/** Spare connections over the subscribers, for the load generator's keep-alive connections. */
const SPARE_CONNECTIONS = 256;
/** Subscriber processes (each holds an even share of the SSE and WebSocket subscribers). */
export const SUBSCRIBER_PROCESSES = 4;

export interface FanoutResult {
  sse: number;
  ws: number;
  connected: number;
  idleBytesPerSubscriber: number;
  idleHeapBytesPerSubscriber: number;
  p50Ms: number;
  p99Ms: number;
  blocks: number;
  deliveries: number;
  /** Block events some subscriber had not received SETTLE_MS after the load ended (late or lost). */
  undelivered: number;
  /** Subscribers that received some block twice or out of height order. */
  disordered: number;
  /** Subscribers that received every block of the load, once, in order. */
  complete: number;
  processes: number;
  closed: number;
  closeReasons: string;
  /** The blocks of the load, and how many subscribers lacked each block that some lacked. */
  fromHeight: number;
  toHeight: number;
  missingByHeight: string;
  loadTxPerS: number;
}

function deliveryLatencies(node: HttpNode, reports: ReceiptReport[], from: number, to: number) {
  const latencies: number[] = [];
  for (let height = from; height <= to; height++) {
    const published = node.blockTimes.get(height);
    if (published === undefined) continue;
    for (const r of reports)
      for (const [bucket, count] of r.histograms[height] ?? [])
        for (let i = 0; i < count; i++) latencies.push(bucket / BUCKETS_PER_MS - published);
  }
  return latencies;
}

async function measureLoad(
  node: HttpNode,
  subs: SubscriberPool,
  opts: { seconds: number; presign: number; log: (m: string) => void },
) {
  const before = Math.max(0, ...node.blockTimes.keys());
  opts.log(`${opts.seconds} s of transfers at full speed while ${subs.open} subscribers listen`);
  const load = await httpPeak(node, opts.seconds, opts.presign);
  // Blocks of the load: those the node announced (`B` lines, from its own start, not the chain's)
  // from the load's start to its end (the queue may still commit more while settling, and those are
  // not all due yet). Each has had SETTLE_MS to reach every subscriber.
  const heights = [...node.blockTimes.keys()].filter((h) => h > before);
  const fromHeight = Math.min(...heights);
  const toHeight = Math.max(before, ...heights);
  await sleep(SETTLE_MS);
  const reports = await subs.report(fromHeight, toHeight);
  const latencies = deliveryLatencies(node, reports, fromHeight, toHeight);
  const sum = (f: (r: ReceiptReport) => number) => reports.reduce((n, r) => n + f(r), 0);
  const missingByHeight: Record<string, number> = {};
  for (const r of reports)
    for (const [h, n] of Object.entries(r.missingByHeight))
      missingByHeight[h] = (missingByHeight[h] ?? 0) + n;
  const reasons: Record<string, number> = {};
  for (const r of reports)
    for (const [k, v] of Object.entries(r.closeReasons)) reasons[k] = (reasons[k] ?? 0) + v;
  return {
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    blocks: Math.max(0, toHeight - fromHeight + 1),
    deliveries: latencies.length,
    undelivered: sum((r) => r.missing),
    disordered: sum((r) => r.disordered),
    complete: sum((r) => r.complete),
    closed: sum((r) => r.closed),
    closeReasons: JSON.stringify(reasons),
    fromHeight,
    toHeight,
    missingByHeight: JSON.stringify(missingByHeight),
    loadTxPerS: load.txPerS,
  };
}

export async function measureFanout(opts: {
  sse: number;
  ws: number;
  seconds: number;
  presign: number;
  log: (m: string) => void;
}): Promise<FanoutResult> {
  const total = opts.sse + opts.ws;
  const node = await startHttpNode({
    blocks: true,
    config: {
      'streams.sse_clients_max': opts.sse,
      'streams.ws_clients_max': opts.ws,
      // Every subscriber connects from 127.0.0.1: the per-address caps are lifted like the totals.
      'streams.sse_clients_per_ip_max': Math.max(1, opts.sse),
      'streams.ws_clients_per_ip_max': Math.max(1, opts.ws),
      'gateway.connections_max': total + SPARE_CONNECTIONS,
      'gateway.connections_per_ip_max': total + SPARE_CONNECTIONS,
    },
  });
  try {
    await sleep(SETTLE_MS);
    const before = await node.memory();
    opts.log(
      `connecting ${opts.sse} SSE and ${opts.ws} WebSocket subscribers in ${SUBSCRIBER_PROCESSES} processes`,
    );
    const subs = await startSubscriberPool(node.url, opts.sse, opts.ws, SUBSCRIBER_PROCESSES);
    try {
      await sleep(SETTLE_MS);
      const idle = await node.memory();
      const measured = await measureLoad(node, subs, opts);
      return {
        sse: opts.sse,
        ws: opts.ws,
        connected: subs.open,
        processes: subs.processes,
        idleBytesPerSubscriber: (idle.rss - before.rss) / subs.open,
        idleHeapBytesPerSubscriber: (idle.heapUsed - before.heapUsed) / subs.open,
        ...measured,
      };
    } finally {
      await subs.close();
    }
  } finally {
    await node.stop();
  }
}
