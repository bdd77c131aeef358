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
import { assert } from '../util/assert.js';
import { CryptoError } from './errors.js';
import type { VerifyItem } from './verify-batch.js';
import { encodeBatch, itemBatchBytes, verifyItemsInline } from './verify-batch.js';
import { WorkerSlots } from './worker-slots.js';

export type { VerifyItem } from './verify-batch.js';
export { startWorker } from './worker-slots.js';

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
  readonly #slots: WorkerSlots | undefined;
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
    if (threads > 0) {
      this.#slots = new WorkerSlots(this.#workerUrl, threads, (cause) => this.#crashError(cause));
      this.#slots.start();
    }
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
    await this.#slots?.close(new CryptoError('verify_pool_closed', 'verification pool closed'));
  }

  stats(): VerifyPoolStats {
    return {
      threads: this.#threads,
      restarts: this.#slots?.restarts ?? 0,
      batchesInFlight: this.#slots?.inFlight() ?? 0,
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
    assert(this.#slots !== undefined, 'a batch dispatched by a pool without workers');
    this.#batchesSent++;
    return this.#slots.dispatch((id) => ({ message: { id, batch }, transfer: [batch] }));
  }

  #crashError(cause: unknown): CryptoError {
    if (this.#closed) return new CryptoError('verify_pool_closed', 'verification pool closed');
    return new CryptoError('verify_worker_crashed', 'signature verification worker died; retry the batch', {
      cause,
    });
  }
}
