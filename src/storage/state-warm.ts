// A warm-up of the state store: reads given key ranges in key order on a worker thread, so their pages
// come into the kernel's page cache before clients ask for them (as PostgreSQL's pg_prewarm). It never
// blocks the caller's thread: the reads run on the worker, in short read transactions, and the caller
// gets the progress as it goes. The pages it touches are mapped into this process while it runs
// (LMDB reads through its map); the store's owner releases them once it is done (StateStore.releaseMappedPages).

import type { Worker } from 'node:worker_threads';
import { assert } from '../util/assert.js';
import { startWorker } from '../util/start-worker.js';
import type { WarmWorkerData, WarmWorkerMessage } from './state-warm-worker.js';

export interface WarmUpProgress {
  /** Keys read so far. */
  keys: number;
  /** Their key and value bytes. */
  bytes: number;
}

export interface WarmUpResult extends WarmUpProgress {
  /** True when stop() ended it before the last range. */
  stopped: boolean;
}

/** The worker's module: the compiled .js beside this file, or the .ts source under tsx. */
const WORKER_URL = new URL(
  import.meta.url.endsWith('.ts') ? './state-warm-worker.ts' : './state-warm-worker.js',
  import.meta.url,
);

export class StateWarmUp {
  private readonly stopFlag = new Int32Array(new SharedArrayBuffer(4));
  private progress: WarmUpProgress = { keys: 0, bytes: 0 };
  /** Set once the worker has exited. */
  private settled = false;
  /** Settles once the worker has closed its handle on the store: with the result, or the worker's error. */
  readonly done: Promise<WarmUpResult>;

  private constructor(
    path: string,
    ranges: { start: Uint8Array; end: Uint8Array }[],
    onProgress: (p: WarmUpProgress) => void,
  ) {
    assert(ranges.length > 0, 'state warm-up: no range');
    const data: WarmWorkerData = { path, ranges, stop: this.stopFlag };
    const worker: Worker = startWorker(WORKER_URL, data);
    this.done = new Promise<WarmUpResult>((resolve, reject) => {
      let result: WarmUpResult | undefined;
      worker.on('message', (m: WarmWorkerMessage) => {
        // The worker counts up, batch after batch.
        assert(
          m.keys >= this.progress.keys && m.bytes >= this.progress.bytes,
          'state warm-up: progress went back',
        );
        this.progress = { keys: m.keys, bytes: m.bytes };
        if (m.kind === 'done') result = { keys: m.keys, bytes: m.bytes, stopped: m.stopped };
        else onProgress(this.progress);
      });
      worker.once('error', reject);
      worker.once('exit', (code) => {
        this.settled = true;
        if (result !== undefined) resolve(result);
        else reject(new Error(`state warm-up: the worker exited (${code}) before it was done`));
      });
    });
    // Observed by the owner through `done`; never an unhandled rejection of its own.
    this.done.catch(() => {});
  }

  /** Starts reading the stored key ranges [start, end), in order, in the LMDB environment at `path`. */
  static start(
    path: string,
    ranges: { start: Uint8Array; end: Uint8Array }[],
    onProgress: (p: WarmUpProgress) => void = () => {},
  ): StateWarmUp {
    assert(
      ranges.every((r) => Buffer.compare(r.start, r.end) < 0),
      'state warm-up: an empty or reversed range',
    );
    return new StateWarmUp(path, ranges, onProgress);
  }

  /** Keys and bytes read so far. */
  read(): WarmUpProgress {
    // Every key read is at least one byte (the key-space byte).
    assert(this.progress.bytes >= this.progress.keys, 'state warm-up: fewer bytes than keys');
    return this.progress;
  }

  /** Asks the worker to stop after its current batch; resolves once it has closed its handle. */
  async stop(): Promise<void> {
    Atomics.store(this.stopFlag, 0, 1);
    await this.done.catch(() => {});
    assert(this.settled, 'state warm-up: stopped before its worker exited');
  }
}
