// Groth16 verification off the event loop, beside the signature pool (src/crypto/verify-pool.ts):
// worker threads that each run the WebAssembly verifier (groth16-wasm.ts, the same verdict as the
// synchronous groth16-verify.ts on every input). Admission hands it the claims a transaction's
// execution will check (src/pipeline/pipeline.ts) and caches the verdicts; execution reads them.
// Claims are cut into jobs of at most `jobMax`, each sent to the least busy worker; answers come
// back in the caller's order. A worker that dies rejects its jobs with `verify_worker_crashed` and
// is replaced on the next call; `close()` rejects what is in flight with `verify_pool_closed`.
import { CryptoError } from '../crypto/errors.js';
import { VERIFY_THREADS_MAX } from '../crypto/verify-pool.js';
import { WorkerSlots } from '../crypto/worker-slots.js';
import { assert } from '../util/assert.js';
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
  readonly #slots: WorkerSlots | undefined;
  #inline: Promise<WasmGroth16> | undefined;
  #claimsVerified = 0;
  #closed = false;

  constructor(opts: ProofPoolOptions) {
    const { threads, jobMax = PROOF_JOB_MAX_DEFAULT } = opts;
    if (!Number.isInteger(threads) || threads < 0 || threads > VERIFY_THREADS_MAX)
      throw new RangeError(`bad threads ${threads}`);
    if (!Number.isInteger(jobMax) || jobMax < 1) throw new RangeError(`bad jobMax ${jobMax}`);
    this.#threads = threads;
    this.#jobMax = jobMax;
    // Started on first use: a node whose chain carries no proof never builds an engine.
    if (threads > 0)
      this.#slots = new WorkerSlots(opts.workerUrl ?? DEFAULT_WORKER_URL, threads, (cause) =>
        this.#crashError(cause),
      );
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
    await this.#slots?.close(new CryptoError('verify_pool_closed', 'proof verification pool closed'));
    if (this.#inline !== undefined) await (await this.#inline).close();
  }

  stats(): ProofPoolStats {
    return {
      threads: this.#threads,
      restarts: this.#slots?.restarts ?? 0,
      jobsInFlight: this.#slots?.inFlight() ?? 0,
      claimsVerified: this.#claimsVerified,
    };
  }

  #dispatch(claims: readonly ProofClaimItem[]): Promise<Uint8Array> {
    assert(this.#slots !== undefined, 'a job dispatched by a pool without workers');
    return this.#slots.dispatch((id) => ({ message: { id, claims } satisfies ProofJob }));
  }

  #crashError(cause: unknown): CryptoError {
    if (this.#closed) return new CryptoError('verify_pool_closed', 'proof verification pool closed');
    return new CryptoError('verify_worker_crashed', 'proof verification worker died; retry the claims', {
      cause,
    });
  }
}
