// The delivery thread (lanes.ts `threadLanes`): a Lane (lane.ts) with the system resolver and the
// keep-alive HTTP client (send.ts), fed by the node thread's scheduler over the worker port. `stop`
// lets the attempts in flight end, reports their outcomes, closes the connections and answers `stopped`.

import { parentPort, workerData } from 'node:worker_threads';
import { Lane, type ToLane } from './lane.js';
import type { LaneThreadData } from './lanes.js';
import { createSender } from './send.js';
import { systemResolve, TargetChecker } from './target.js';

const data = workerData as LaneThreadData;
const port = parentPort!;
const targets = new TargetChecker(data.policy, systemResolve);
const sender = createSender(data.socketsMax);
const lane = new Lane({
  check: (url) => targets.check(url),
  send: sender.send,
  limits: data.limits,
  nowMs: () => Date.now(),
  post: (outcomes) => port.postMessage({ type: 'outcomes', outcomes }),
});

port.on('message', (msg: ToLane | { type: 'stop' }) => {
  if (msg.type !== 'stop') {
    lane.take(msg);
    return;
  }
  void lane.stop().then(() => {
    sender.close();
    port.postMessage({ type: 'stopped' });
  });
});
