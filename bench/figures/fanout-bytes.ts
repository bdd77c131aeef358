// Figure `fanout_bytes_per_subscriber` (event fan-out: ≤ 20 KiB of memory per idle
// subscriber). The node's resident memory after a full GC, before and after connecting the idle
// subscribers of the fan-out measurement (lib/fanout.ts; the subscribers live in processes of their
// own, so only the node's share is counted), divided by their number; the heap-only
// share is in `extra`. `--quick` uses a tenth of the subscribers and cannot meet the goal.

import { FANOUT_SSE, FANOUT_WS } from '../lib/fixtures.js';
import { type Figure, type FigureResult, notMeasured } from '../lib/types.js';

/** Goal: 20 KiB per idle subscriber. */
const IDLE_BYTES_GOAL = 20 * 1024;
const GOAL = `<= ${IDLE_BYTES_GOAL} bytes (20 KiB) per idle subscriber`;

export const fanoutBytesFigure: Figure = {
  id: 'fanout_bytes_per_subscriber',
  async run(ctx): Promise<FigureResult> {
    const missing = await ctx.fixtures.gatewayMissing();
    if (missing !== undefined) return notMeasured('fanout_bytes_per_subscriber', 'bytes', GOAL, missing);
    const f = await ctx.fixtures.fanout();
    const fullScale = f.sse >= FANOUT_SSE && f.ws >= FANOUT_WS;
    return {
      id: 'fanout_bytes_per_subscriber',
      value: f.idleBytesPerSubscriber,
      unit: 'bytes',
      baseline: null,
      baseline_value: null,
      ratio: null,
      goal: GOAL,
      assessed: fullScale,
      met: fullScale && f.connected === f.sse + f.ws && f.idleBytesPerSubscriber <= IDLE_BYTES_GOAL,
      note:
        `node RSS after GC, before vs after ${f.connected} idle subscribers (${f.sse} SSE + ${f.ws} WebSocket, ` +
        `in ${f.processes} subscriber processes)` +
        `${fullScale ? '' : '; reduced scale (--quick), so not counted as met'}`,
      extra: { heap_bytes_per_subscriber: f.idleHeapBytesPerSubscriber, subscribers: f.connected },
    };
  },
};
