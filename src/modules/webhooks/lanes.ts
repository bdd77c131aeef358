// Where the lanes (lane.ts) run: `threadLanes` in a worker thread of their own (the node's default:
// a busy node thread then costs the deliveries one outcome batch per turn of its event loop, not one
// delivery per turn), `localLanes` in the calling thread (tests that inject the HTTP client or the
// resolver, which cannot cross into a thread). Both take the same messages and report the same batches.

import type { Worker as Thread } from 'node:worker_threads';
import { startWorker } from '../../crypto/verify-pool.js';
import { Lane, type LaneOutcome, type ToLane } from './lane.js';
import type { Send, SendLimits } from './send.js';
import type { TargetChecker, TargetPolicy } from './target.js';

export interface Lanes {
  post(msg: ToLane): void;
  /** Readies the lanes ahead of the first delivery (starts the thread). */
  warm(): void;
  /** Set by the scheduler: outcome batches, and the loss of the lanes' state (a thread that died). */
  onOutcomes: (outcomes: LaneOutcome[]) => void;
  onLost: (e: unknown) => void;
  /** Lets the attempts in flight end (their outcomes are reported), then releases the lanes. */
  close(): Promise<void>;
}

export interface LaneThreadData {
  policy: TargetPolicy;
  limits: SendLimits;
  socketsMax: number;
}

export function localLanes(
  targets: TargetChecker,
  send: Send,
  limits: SendLimits,
  nowMs: () => number,
): Lanes {
  const lanes: Lanes = {
    post: (msg) => lane.take(msg),
    warm: () => {},
    onOutcomes: () => {},
    onLost: () => {},
    close: () => lane.stop(),
  };
  const lane = new Lane({
    check: (url) => targets.check(url),
    send,
    limits,
    nowMs,
    post: (outcomes) => lanes.onOutcomes(outcomes),
  });
  return lanes;
}

const THREAD_URL = new URL(
  import.meta.url.endsWith('.ts') ? './lane-thread.ts' : './lane-thread.js',
  import.meta.url,
);

type FromThread = { type: 'outcomes'; outcomes: LaneOutcome[] } | { type: 'stopped' };

/** Lanes in a worker thread, started at the first delivery and again after one died. */
export function threadLanes(data: LaneThreadData): Lanes {
  let thread: Thread | undefined;
  let closing = false;
  let stopped: (() => void) | undefined;
  const start = (): Thread => {
    const t = startWorker(THREAD_URL, data);
    t.on('message', (m: FromThread) => {
      if (m.type === 'outcomes') lanes.onOutcomes(m.outcomes);
      else stopped?.();
    });
    let failure: unknown;
    t.on('error', (e) => {
      failure = e;
    });
    t.on('exit', (code) => {
      if (thread === t) thread = undefined;
      stopped?.();
      if (!closing) lanes.onLost(failure ?? new Error(`webhook delivery thread exited with ${code}`));
    });
    return t;
  };
  const lanes: Lanes = {
    post(msg) {
      if (closing) return;
      thread ??= start();
      thread.postMessage(msg);
    },
    warm() {
      if (!closing) thread ??= start();
    },
    onOutcomes: () => {},
    onLost: () => {},
    async close() {
      closing = true;
      const t = thread;
      if (t === undefined) return;
      const done = new Promise<void>((resolve) => {
        stopped = resolve;
      });
      t.postMessage({ type: 'stop' });
      const grace = setTimeout(() => void t.terminate(), data.limits.timeoutMs + 2000);
      await done;
      clearTimeout(grace);
      await t.terminate();
    },
  };
  return lanes;
}
