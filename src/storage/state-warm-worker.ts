// The worker thread of a state warm-up (state-warm.ts): opens the state store's LMDB environment (the
// process's own, shared with the main thread by lmdb) and reads the keys of the given ranges in key
// order, so the leaf pages holding them come into the kernel's page cache. It reads in batches of
// BATCH keys, each in a fresh read transaction (a long one would keep LMDB from reusing the pages the
// node's commits free meanwhile), posts the keys and bytes read after every batch, and stops at the
// next batch once the parent sets the stop flag.

import { parentPort, workerData } from 'node:worker_threads';
import { open } from 'lmdb';
import { assert } from '../util/assert.js';

export interface WarmWorkerData {
  path: string;
  /** [start, end) of stored keys, read in this order. */
  ranges: { start: Uint8Array; end: Uint8Array }[];
  /** Int32Array over a SharedArrayBuffer: [0] = 1 asks the worker to stop. */
  stop: Int32Array;
}

export type WarmWorkerMessage =
  | { kind: 'progress'; keys: number; bytes: number }
  | { kind: 'done'; keys: number; bytes: number; stopped: boolean };

const BATCH = 4096;

const data = workerData as WarmWorkerData;
const port = parentPort;
if (port === null) throw new Error('state-warm-worker: not in a worker thread');

const db = open<Uint8Array, Uint8Array>({
  path: data.path,
  readOnly: true,
  keyEncoding: 'binary',
  encoding: 'binary',
  compression: false,
  cache: false,
});
let keys = 0;
let bytes = 0;
let stopped = false;
try {
  for (const range of data.ranges) {
    let start: Uint8Array = range.start;
    for (;;) {
      if (Atomics.load(data.stop, 0) === 1) {
        stopped = true;
        break;
      }
      let n = 0;
      let last: Uint8Array | undefined;
      for (const { key, value } of db.getRange({ start, end: range.end, limit: BATCH })) {
        // In key order, inside the range.
        assert(
          Buffer.compare(start, key) <= 0 && Buffer.compare(key, range.end) < 0,
          'state warm-up: key out of range',
        );
        n++;
        bytes += key.length + value.length;
        last = key;
      }
      keys += n;
      port.postMessage({ kind: 'progress', keys, bytes } satisfies WarmWorkerMessage);
      if (last === undefined || n < BATCH) break;
      // The next key after `last` in byte order: `last` followed by a zero byte.
      start = new Uint8Array(last.length + 1);
      start.set(last);
      // lmdb resets its read transaction once the event turn ends.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    if (stopped) break;
  }
} finally {
  await db.close();
}
port.postMessage({ kind: 'done', keys, bytes, stopped } satisfies WarmWorkerMessage);
