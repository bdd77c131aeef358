// Ed25519 verification off the event loop (docs/design/architecture.md).
// Items are cut into batches (at most `batchMax` items and about `batchBytesMax` bytes), each
// batch is packed into one ArrayBuffer and transferred to the least busy worker, and the answers
// are put back in the caller's order. A worker that dies rejects its batches with a typed error
// (`verify_worker_crashed`) and is replaced by a fresh thread on the next call; nothing hangs.
//
// Micro-batching: admission verifies one signature per call, and one message round trip per
// signature costs the event loop about as much as the verification costs the worker. Calls
// smaller than a batch are therefore gathered, across callers, until the end of the current turn
// of the event loop (setImmediate) or until a batch is full, and go to a worker as one batch; each
// caller still gets exactly its own answers, in its order. Under load many submissions arrive per
// turn, so batches grow with load; alone, a call waits at most one turn.
import { Worker } from 'node:worker_threads';
import { assert } from '../util/assert.js';
import { CryptoError } from './errors.js';
import type { VerifyItem } from './verify-batch.js';
import { encodeBatch, itemBatchBytes, verifyItemsInline } from './verify-batch.js';

export type { VerifyItem } from './verify-batch.js';

export interface VerifyPoolOptions {
  /** Worker threads; 0 verifies inline on the calling thread. */
  threads: number;
  /** Items per batch sent to a worker. */
  batchMax?: number;
  /** Approximate bytes per batch (a single larger item still goes alone). */
  batchBytesMax?: number;
  /** Worker entry point; defaults to verify-worker.ts/.js beside this file. For tests and bundles. */
  workerUrl?: URL;
}

export const VERIFY_THREADS_MAX = 64;
export const VERIFY_BATCH_MAX_DEFAULT = 256;
export const VERIFY_BATCH_BYTES_MAX_DEFAULT = 1024 * 1024;

// Under `node --import tsx` this module is verify-pool.ts and the worker is the .ts source beside
// it; compiled, both are .js in dist/crypto/.
const DEFAULT_WORKER_URL = new URL(
  import.meta.url.endsWith('.ts') ? './verify-worker.ts' : './verify-worker.js',
  import.meta.url,
);

/**
 * Starts a worker on `url`. A compiled .js entry starts directly. A .ts entry (running the sources
 * under tsx) needs tsx inside the worker, and on Node 20 the parent's `--import tsx` does not
 * reach a worker's module loader (the worker fails with ERR_UNKNOWN_FILE_EXTENSION), so a small
 * bootstrap registers tsx's ESM hooks in the worker first and then imports the entry, under the
 * parent's export conditions.
 */
export function startWorker(url: URL, workerData?: unknown): Worker {
  if (!/\.[cm]?ts$/.test(url.pathname)) return new Worker(url, { workerData });
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const bootstrap =
    `import(${JSON.stringify(tsxApi)})` +
    `.then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); });`;
  // The parent's `--conditions` decide where `#crypto-backend` resolves (the sources under
  // `torana-source`, else dist/, which an unbuilt checkout lacks): the worker resolves as the parent does.
  const conditions = process.execArgv.filter((a) => a.startsWith('--conditions=') || a.startsWith('-C='));
  return new Worker(bootstrap, { eval: true, execArgv: conditions, workerData });
}

interface Job {
  resolve(results: Uint8Array): void;
  reject(error: Error): void;
}

interface Slot {
  readonly worker: Worker;
  readonly jobs: Map<number, Job>;
  dead: boolean;
}

/** A caller waiting on part of a gathered batch: its items are [start, start + count). */
interface Waiter {
  readonly start: number;
  readonly count: number;
  resolve(answers: boolean[]): void;
  reject(error: Error): void;
}

/** Small calls gathered for the next batch. */
interface Gathered {
  readonly items: VerifyItem[];
  readonly waiters: Waiter[];
  bytes: number;
}

interface BatchReply {
  id: number;
  results: ArrayBuffer;
}

export interface VerifyPoolStats {
  threads: number;
  /** Workers replaced after dying. */
  restarts: number;
  batchesInFlight: number;
  /** Batches sent to workers since the pool started (calls gathered into one batch count once). */
  batchesSent: number;
}

export class VerifyPool {
  readonly #threads: number;
  readonly #batchMax: number;
  readonly #batchBytesMax: number;
  readonly #workerUrl: URL;
  readonly #slots: Slot[] = [];
  #nextJobId = 0;
  #restarts = 0;
  #batchesSent = 0;
  #closed = false;
  #gathered: Gathered | undefined;
  #flushScheduled = false;

  constructor(opts: VerifyPoolOptions) {
    const {
      threads,
      batchMax = VERIFY_BATCH_MAX_DEFAULT,
      batchBytesMax = VERIFY_BATCH_BYTES_MAX_DEFAULT,
    } = opts;
    assert(
      Number.isInteger(threads) && threads >= 0 && threads <= VERIFY_THREADS_MAX,
      `bad threads ${threads}`,
    );
    assert(Number.isInteger(batchMax) && batchMax >= 1, `bad batchMax ${batchMax}`);
    assert(Number.isInteger(batchBytesMax) && batchBytesMax >= 1, `bad batchBytesMax ${batchBytesMax}`);
    this.#threads = threads;
    this.#batchMax = batchMax;
    this.#batchBytesMax = batchBytesMax;
    this.#workerUrl = opts.workerUrl ?? DEFAULT_WORKER_URL;
    for (let i = 0; i < threads; i++) this.#slots.push(this.#spawn());
  }

  /** One answer per item, in order: true when the Ed25519 signature is valid (strict, RFC 8032). */
  async verify(items: VerifyItem[]): Promise<boolean[]> {
    if (this.#closed) throw new CryptoError('verify_pool_closed', 'verification pool is closed');
    if (this.#threads === 0) return verifyItemsInline(items);
    if (items.length === 0) return [];
    if (items.length < this.#batchMax) return this.#gather(items);
    const batches = this.#cut(items).map(([start, end]) =>
      this.#dispatch(encodeBatch(items.slice(start, end))),
    );
    const answers = await Promise.all(batches);
    const out: boolean[] = [];
    for (const answer of answers) for (const byte of answer) out.push(byte === 1);
    return out;
  }

  /** Ends every worker; batches still in flight (or still gathering) reject with `verify_pool_closed`. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const gathered = this.#gathered;
    this.#gathered = undefined;
    for (const w of gathered?.waiters ?? [])
      w.reject(new CryptoError('verify_pool_closed', 'verification pool closed'));
    const closing = this.#slots.map((slot) => {
      this.#fail(slot, new CryptoError('verify_pool_closed', 'verification pool closed'));
      return slot.worker.terminate();
    });
    await Promise.all(closing);
  }

  stats(): VerifyPoolStats {
    let batchesInFlight = 0;
    for (const slot of this.#slots) batchesInFlight += slot.jobs.size;
    return {
      threads: this.#threads,
      restarts: this.#restarts,
      batchesInFlight,
      batchesSent: this.#batchesSent,
    };
  }

  /** Adds a small call to the batch being gathered; it is sent when full or at the end of this turn. */
  #gather(items: readonly VerifyItem[]): Promise<boolean[]> {
    let bytes = 0;
    for (const item of items) bytes += itemBatchBytes(item);
    const open = this.#gathered;
    if (
      open !== undefined &&
      (open.items.length + items.length > this.#batchMax || open.bytes + bytes > this.#batchBytesMax)
    ) {
      this.#flush();
    }
    const g: Gathered = this.#gathered ?? { items: [], waiters: [], bytes: 0 };
    this.#gathered = g;
    const answer = new Promise<boolean[]>((resolve, reject) => {
      g.waiters.push({ start: g.items.length, count: items.length, resolve, reject });
    });
    for (const item of items) g.items.push(item);
    g.bytes += bytes;
    if (g.items.length >= this.#batchMax || g.bytes >= this.#batchBytesMax) this.#flush();
    else if (!this.#flushScheduled) {
      this.#flushScheduled = true;
      setImmediate(() => {
        this.#flushScheduled = false;
        this.#flush();
      });
    }
    return answer;
  }

  /** Sends the gathered batch, then hands each waiter its slice of the answers. */
  #flush(): void {
    const g = this.#gathered;
    if (g === undefined || this.#closed) return;
    this.#gathered = undefined;
    let sent: Promise<Uint8Array>;
    try {
      sent = this.#dispatch(encodeBatch(g.items));
    } catch (e) {
      // Runs from setImmediate too, where a throw would be uncaught: every waiter gets the error instead.
      sent = Promise.reject(e);
    }
    sent.then(
      (answer) => {
        for (const w of g.waiters) {
          const out = new Array<boolean>(w.count);
          for (let i = 0; i < w.count; i++) out[i] = answer[w.start + i] === 1;
          w.resolve(out);
        }
      },
      (error: Error) => {
        for (const w of g.waiters) w.reject(error);
      },
    );
  }

  /** Half-open index ranges of the batches for `items`. */
  #cut(items: readonly VerifyItem[]): Array<[number, number]> {
    const ranges: Array<[number, number]> = [];
    let start = 0;
    let bytes = 0;
    for (let i = 0; i < items.length; i++) {
      const size = itemBatchBytes(items[i]!);
      if (i > start && (i - start >= this.#batchMax || bytes + size > this.#batchBytesMax)) {
        ranges.push([start, i]);
        start = i;
        bytes = 0;
      }
      bytes += size;
    }
    if (items.length > start) ranges.push([start, items.length]);
    return ranges;
  }

  #dispatch(batch: ArrayBuffer): Promise<Uint8Array> {
    const slot = this.#leastBusySlot();
    const id = this.#nextJobId++;
    this.#batchesSent++;
    return new Promise<Uint8Array>((resolve, reject) => {
      if (slot.jobs.size === 0) slot.worker.ref();
      slot.jobs.set(id, { resolve, reject });
      slot.worker.postMessage({ id, batch }, [batch]);
    });
  }

  #leastBusySlot(): Slot {
    let best = 0;
    for (let i = 0; i < this.#slots.length; i++) {
      if (this.#slots[i]!.dead) {
        this.#slots[i] = this.#spawn();
        this.#restarts++;
      }
      if (this.#slots[i]!.jobs.size < this.#slots[best]!.jobs.size) best = i;
    }
    return this.#slots[best]!;
  }

  #spawn(): Slot {
    const worker = startWorker(this.#workerUrl);
    const slot: Slot = { worker, jobs: new Map(), dead: false };
    worker.on('message', (reply: BatchReply) => {
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
    // An idle worker must not keep the process alive; a busy one must, or a script awaiting a
    // verification could exit with the promise unsettled. (After the listeners: adding a
    // 'message' listener refs the worker's port again.)
    worker.unref();
    return slot;
  }

  #crashError(cause: unknown): CryptoError {
    if (this.#closed) return new CryptoError('verify_pool_closed', 'verification pool closed');
    return new CryptoError('verify_worker_crashed', 'signature verification worker died; retry the batch', {
      cause,
    });
  }

  /** Marks a slot dead once and rejects everything it was doing. */
  #fail(slot: Slot, error: CryptoError): void {
    if (slot.dead) return;
    slot.dead = true;
    for (const job of slot.jobs.values()) job.reject(error);
    slot.jobs.clear();
  }
}
