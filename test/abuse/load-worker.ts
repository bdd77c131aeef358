// A load client in its own thread (worker_threads, body in load-thread.mjs), so that building, sending and
// reading hostile requests does not run on the event loop of the node under test: the scenarios measure
// the node, not the client.

import { Worker } from 'node:worker_threads';

export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  /** JSON text of the body (sent as application/json) or codec bytes (application/x-codec). */
  body?: string | Uint8Array;
}

export interface Answer {
  status: number;
  code?: string;
  total?: number;
  /** The answer carried a query cursor. */
  cursor?: boolean;
  ms: number;
}

/** Sends `requests` to `url` from a worker thread, `concurrency` at a time; answers in request order. */
export function loadFromWorker(url: string, requests: LoadRequest[], concurrency: number): Promise<Answer[]> {
  return new Promise((resolve, reject) => {
    const w = new Worker(new URL('./load-thread.mjs', import.meta.url), {
      workerData: { job: { url, requests, concurrency } },
    });
    w.once('message', (m: { answers?: Answer[]; error?: string }) => {
      void w.terminate();
      if (m.answers !== undefined) resolve(m.answers);
      else reject(new Error(`load worker: ${m.error}`));
    });
    w.once('error', reject);
  });
}
