// The worker threads of a verification pool: the signature pool (verify-pool.ts) and the proof pool
// (src/zk/proof-pool.ts) both send a job to the least busy worker and get its answer back by job id, as
// bytes. A worker that dies rejects its jobs with the pool's crash error and is replaced by the next
// dispatch (counted in `restarts`); `close` rejects what is in flight with the pool's closed error.
// Idle workers do not keep the process alive; a busy one does, or a script awaiting a verification
// could exit with the promise unsettled.

import type { Worker } from 'node:worker_threads';
import { assert } from '../util/assert.js';
import { startWorker } from '../util/start-worker.js';
import type { CryptoError } from './errors.js';

export { startWorker } from '../util/start-worker.js';

interface Job {
  resolve(results: Uint8Array): void;
  reject(error: Error): void;
}

interface Slot {
  readonly worker: Worker;
  readonly jobs: Map<number, Job>;
  dead: boolean;
}

/** What a worker answers: the job's id and one byte per item. */
interface Reply {
  id: number;
  results: ArrayBuffer;
}

export class WorkerSlots {
  readonly #slots: Slot[] = [];
  readonly #url: URL;
  readonly #threads: number;
  readonly #crashError: (cause: unknown) => CryptoError;
  #nextId = 0;
  /** Workers replaced after dying. */
  restarts = 0;

  /** `crashError`: what the jobs of a dead worker reject with (the pool's closed error once it is closing). */
  constructor(url: URL, threads: number, crashError: (cause: unknown) => CryptoError) {
    assert(Number.isInteger(threads) && threads >= 1, `worker slots: ${threads} threads`);
    this.#url = url;
    this.#threads = threads;
    this.#crashError = crashError;
  }

  /** Starts the workers not started yet (else the first dispatch does). */
  start(): void {
    while (this.#slots.length < this.#threads) this.#slots.push(this.#spawn());
  }

  /** Jobs sent and not answered yet. */
  inFlight(): number {
    let n = 0;
    for (const slot of this.#slots) n += slot.jobs.size;
    return n;
  }

  /** Sends the message `build(id)` gives (with its transfer list) to the least busy worker. */
  dispatch(build: (id: number) => { message: unknown; transfer?: ArrayBuffer[] }): Promise<Uint8Array> {
    const slot = this.#leastBusy();
    const id = this.#nextId++;
    const { message, transfer } = build(id);
    return new Promise<Uint8Array>((resolve, reject) => {
      if (slot.jobs.size === 0) slot.worker.ref();
      slot.jobs.set(id, { resolve, reject });
      slot.worker.postMessage(message, transfer);
    });
  }

  /** Rejects every job in flight with `error` and ends every worker. */
  async close(error: CryptoError): Promise<void> {
    await Promise.all(
      this.#slots.map((slot) => {
        this.#fail(slot, error);
        return slot.worker.terminate();
      }),
    );
  }

  #leastBusy(): Slot {
    this.start();
    let best = 0;
    for (let i = 0; i < this.#slots.length; i++) {
      if (this.#slots[i]!.dead) {
        this.#slots[i] = this.#spawn();
        this.restarts++;
      }
      if (this.#slots[i]!.jobs.size < this.#slots[best]!.jobs.size) best = i;
    }
    return this.#slots[best]!;
  }

  #spawn(): Slot {
    const worker = startWorker(this.#url);
    const slot: Slot = { worker, jobs: new Map(), dead: false };
    worker.on('message', (reply: Reply) => {
      const job = slot.jobs.get(reply.id);
      if (job === undefined) return;
      slot.jobs.delete(reply.id);
      if (slot.jobs.size === 0) worker.unref();
      job.resolve(new Uint8Array(reply.results));
    });
    worker.on('error', (cause) => this.#fail(slot, this.#crashError(cause)));
    worker.on('exit', (code) =>
      this.#fail(slot, this.#crashError(new Error(`worker exited with code ${code}`))),
    );
    // After the listeners: adding a 'message' listener refs the worker's port again.
    worker.unref();
    return slot;
  }

  /** Marks a slot dead once and rejects everything it was doing. */
  #fail(slot: Slot, error: CryptoError): void {
    if (slot.dead) return;
    slot.dead = true;
    for (const job of slot.jobs.values()) job.reject(error);
    slot.jobs.clear();
  }
}
