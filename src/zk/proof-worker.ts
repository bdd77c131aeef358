// Entry point of one proof verification worker thread (see proof-pool.ts). It builds its
// WebAssembly engine once (groth16-wasm.ts, single-threaded) and answers each job with one byte per
// claim (1 valid, 0 not). Any exception is left uncaught on purpose: the thread dies and the pool
// rejects the job with `verify_worker_crashed` instead of answering wrongly.
import threads from 'node:worker_threads';
import type { ProofJob } from './proof-pool.js';

const port = threads.parentPort;
if (port === null) throw new Error('proof-worker.ts must run as a worker thread');

// ffjavascript loads `web-worker`, which on evaluation takes any thread that is not the main one for a
// worker it started itself and reads its startup data (absent here: the thread dies). The engine is
// built single-threaded and never starts a worker, so it is loaded as the main thread would load it;
// the flag is restored as soon as the module graph is evaluated.
const flags = threads as { isMainThread: boolean };
flags.isMainThread = true;
const loading = import('./groth16-wasm.js');
const engine = loading.then((m) => m.WasmGroth16.load());
void loading.finally(() => {
  flags.isMainThread = false;
});

port.on('message', (job: ProofJob) => {
  void engine.then((wasm) => {
    const results = new Uint8Array(job.claims.length);
    for (let i = 0; i < job.claims.length; i++) {
      const c = job.claims[i]!;
      results[i] = wasm.verify(c.key, c.proof, c.signals) ? 1 : 0;
    }
    port.postMessage({ id: job.id, results: results.buffer }, [results.buffer]);
  });
});
