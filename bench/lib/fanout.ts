// The event fan-out measurement behind `fanout_p99_ms` and `fanout_bytes_per_subscriber` (issue 6
// table: 10,000 SSE + 1,000 WebSocket subscribers, commit events at the peak rate; p99 delivery ≤
// 100 ms, ≤ 20 KiB per idle subscriber). A node in its own process with its stream limits raised to
// fit the subscribers; its memory is read after a full GC before and after connecting the idle
// subscribers; then transfers are submitted at full speed and every block commit event is timed from
// the node's publish to each subscriber's receipt. Subscribers and the load generator share the
// bench process, so client-side delays count against the node: the figure is an upper bound.

import { httpPeak } from './http-load.js';
import { type HttpNode, startHttpNode } from './http-node.js';
import { connectSubscribers } from './subscribers.js';
import { percentile, sleep } from './timing.js';

/** Time given to settle (connections idle, last deliveries in) before each reading. */
const SETTLE_MS = 1_500;
/** Spare connections over the subscribers, for the load generator's keep-alive connections. */
const SPARE_CONNECTIONS = 256;

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
  closed: number;
  closeReasons: string;
  loadTxPerS: number;
}

function deliveryLatencies(node: HttpNode, byHeight: Map<number, number[]>, fromHeight: number) {
  const latencies: number[] = [];
  let blocks = 0;
  for (const [height, published] of node.blockTimes) {
    if (height < fromHeight) continue;
    blocks++;
    for (const t of byHeight.get(height) ?? []) latencies.push(t - published);
  }
  return { latencies, blocks };
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
      'gateway.connections_max': total + SPARE_CONNECTIONS,
      'gateway.connections_per_ip_max': total + SPARE_CONNECTIONS,
    },
  });
  try {
    await sleep(SETTLE_MS);
    const before = await node.memory();
    opts.log(`connecting ${opts.sse} SSE and ${opts.ws} WebSocket subscribers`);
    const subs = await connectSubscribers(node.url, opts.sse, opts.ws);
    try {
      await sleep(SETTLE_MS);
      const idle = await node.memory();
      const fromHeight = Math.max(0, ...node.blockTimes.keys()) + 1;
      opts.log(`${opts.seconds} s of transfers at full speed while ${subs.open} subscribers listen`);
      const load = await httpPeak(node, opts.seconds, opts.presign);
      await sleep(SETTLE_MS);
      const { latencies, blocks } = deliveryLatencies(node, subs.receipts.byHeight, fromHeight);
      return {
        sse: opts.sse,
        ws: opts.ws,
        connected: subs.open,
        idleBytesPerSubscriber: (idle.rss - before.rss) / subs.open,
        idleHeapBytesPerSubscriber: (idle.heapUsed - before.heapUsed) / subs.open,
        p50Ms: percentile(latencies, 50),
        p99Ms: percentile(latencies, 99),
        blocks,
        deliveries: latencies.length,
        undelivered: blocks * subs.open - latencies.length,
        closed: subs.receipts.closed,
        closeReasons: JSON.stringify(Object.fromEntries(subs.receipts.closeReasons)),
        loadTxPerS: load.txPerS,
      };
    } finally {
      subs.close();
    }
  } finally {
    await node.stop();
  }
}
