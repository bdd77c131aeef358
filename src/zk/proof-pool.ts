// Groth16 verification off the event loop, beside the signature pool (src/crypto/verify-pool.ts):
// worker threads that each run the WebAssembly verifier (groth16-wasm.ts, the same verdict as the
// synchronous groth16-verify.ts on every input). Admission hands it the claims a transaction's
// execution will check (src/pipeline/pipeline.ts) and caches the verdicts; execution reads them.
// Claims are cut into jobs of at most `jobMax`, each sent to the least busy worker; answers come
// back in the caller's order. A worker that dies rejects its jobs with `verify_worker_crashed` and
// is replaced on the next call; `close()` rejects what is in flight with `verify_pool_closed`.
import type { Worker } from 'node:worker_threads';
import { CryptoError } from '../crypto/errors.js';
import { startWorker, VERIFY_THREADS_MAX } from '../crypto/verify-pool.js';
import type { Groth16ProofBytes } from './groth16-verify.js';
import type { WasmGroth16 } from './groth16-wasm.js';
import type { Json } from './verifying-key.js';

/** A proof to verify: under the key payload (snarkjs JSON), for these public signals (snarkjs order). */
export interface ProofClaimItem {
  readonly key: Json;
  readonly proof: Groth16ProofBytes;
  readonly signals: readonly bigint[];
}

/** The message a worker receives (structured clone: bigints and byte arrays pass as they are). */
export interface ProofJob {
  id: number;
  claims: readonly ProofClaimItem[];
}

export interface ProofPoolOptions {
  /** Worker threads; 0 verifies on the calling thread (the same WebAssembly verifier). */
  threads: number;
  /** Claims per job sent to one worker (a verification is milliseconds: small jobs spread better). */
  jobMax?: number;
  /** Worker entry point; defaults to proof-worker.ts/.js beside this file. For tests and bundles. */
  workerUrl?: URL;
}

export const PROOF_JOB_MAX_DEFAULT = 2;

const DEFAULT_WORKER_URL = new URL(
  import.meta.url.endsWith('.ts') ? './proof-worker.ts' : './proof-worker.js',
  import.meta.url,
);

interface Slot {
  readonly worker: Worker;
  readonly jobs: Map<number, { resolve(r: Uint8Array): void; reject(e: Error): void }>;
  dead: boolean;
}

export interface ProofPoolStats {
  threads: number;
  restarts: number;
  jobsInFlight: number;
  /** Claims verified by workers (or inline) since the pool started. */
  claimsVerified: number;
}

export class ProofVerifyPool {
  readonly #threads: number;
  readonly #jobMax: number;
  readonly #workerUrl: URL;
  readonly #slots: Slot[] = [];
  #inline: Promise<WasmGroth16> | undefined;
  #nextJobId = 0;
  #restarts = 0;
  #claimsVerified = 0;
  #closed = false;

  constructor(opts: ProofPoolOptions) {
    const { threads, jobMax = PROOF_JOB_MAX_DEFAULT } = opts;
    if (!Number.isInteger(threads) || threads < 0 || threads > VERIFY_THREADS_MAX)
      throw new RangeError(`bad threads ${threads}`);
    if (!Number.isInteger(jobMax) || jobMax < 1) throw new RangeError(`bad jobMax ${jobMax}`);
    this.#threads = threads;
    this.#jobMax = jobMax;
    this.#workerUrl = opts.workerUrl ?? DEFAULT_WORKER_URL;
    // Started on first use: a node whose chain carries no proof never builds an engine.
  }

  /** One verdict per claim, in order (true when the proof verifies); never throws on untrusted input. */
  async verify(claims: readonly ProofClaimItem[]): Promise<boolean[]> {
    if (this.#closed) throw new CryptoError('verify_pool_closed', 'proof verification pool is closed');
    if (claims.length === 0) return [];
    if (this.#threads === 0) {
      // Imported on first use: every node imports this file, few chains carry proofs.
      this.#inline ??= import('./groth16-wasm.js').then((m) => m.WasmGroth16.load());
      const wasm = await this.#inline;
      this.#claimsVerified += claims.length;
      return claims.map((c) => wasm.verify(c.key, c.proof, c.signals));
    }
    const jobs: Promise<Uint8Array>[] = [];
    for (let i = 0; i < claims.length; i += this.#jobMax)
      jobs.push(this.#dispatch(claims.slice(i, i + this.#jobMax)));
    const answers = await Promise.all(jobs);
    const out: boolean[] = [];
    for (const answer of answers) for (const byte of answer) out.push(byte === 1);
    this.#claimsVerified += out.length;
    return out;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const closing = this.#slots.map((slot) => {
      this.#fail(slot, new CryptoError('verify_pool_closed', 'proof verification pool closed'));
      return slot.worker.terminate();
    });
    await Promise.all(closing);
    if (this.#inline !== undefined) await (await this.#inline).close();
  }

  stats(): ProofPoolStats {
    let jobsInFlight = 0;
    for (const slot of this.#slots) jobsInFlight += slot.jobs.size;
    return {
      threads: this.#threads,
      restarts: this.#restarts,
      jobsInFlight,
      claimsVerified: this.#claimsVerified,
    };
  }

  #dispatch(claims: readonly ProofClaimItem[]): Promise<Uint8Array> {
    const slot = this.#leastBusySlot();
    const id = this.#nextJobId++;
    return new Promise<Uint8Array>((resolve, reject) => {
      if (slot.jobs.size === 0) slot.worker.ref();
      slot.jobs.set(id, { resolve, reject });
      slot.worker.postMessage({ id, claims } satisfies ProofJob);
    });
  }

  #leastBusySlot(): Slot {
    while (this.#slots.length < this.#threads) this.#slots.push(this.#spawn());
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
    worker.on('message', (reply: { id: number; results: ArrayBuffer }) => {
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
    // Idle workers do not keep the process alive (as the signature pool's).
    worker.unref();
    return slot;
  }

  #crashError(cause: unknown): CryptoError {
    if (this.#closed) return new CryptoError('verify_pool_closed', 'proof verification pool closed');
    return new CryptoError('verify_worker_crashed', 'proof verification worker died; retry the claims', {
      cause,
    });
  }

  #fail(slot: Slot, error: CryptoError): void {
    if (slot.dead) return;
    slot.dead = true;
    for (const job of slot.jobs.values()) job.reject(error);
    slot.jobs.clear();
  }
}
