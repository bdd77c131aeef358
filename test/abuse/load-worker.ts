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

interface Reply {
  id: number;
  answers?: Answer[];
  error?: string;
}

/**
 * One load thread for the process, started on first use: starting a thread costs about a second on a busy
 * machine, and scenarios send several jobs. `execArgv: []`: the thread body is plain JavaScript, so the
 * thread does not load the TypeScript loader the test process runs under. Referenced only while a job is
 * out, so an idle thread never keeps a test process alive.
 */
let thread: Worker | undefined;
let nextId = 0;
const waiting = new Map<number, { resolve(a: Answer[]): void; reject(e: Error): void }>();

function loadThread(): Worker {
  if (thread !== undefined) return thread;
  const w = new Worker(new URL('./load-thread.mjs', import.meta.url), { execArgv: [] });
  w.unref();
  w.on('message', (m: Reply) => {
    const job = waiting.get(m.id);
    if (job === undefined) return;
    waiting.delete(m.id);
    if (waiting.size === 0) w.unref();
    if (m.answers !== undefined) job.resolve(m.answers);
    else job.reject(new Error(`load worker: ${m.error}`));
  });
  const fail = (e: Error) => {
    thread = undefined;
    for (const job of waiting.values()) job.reject(e);
    waiting.clear();
  };
  w.on('error', fail);
  w.on('exit', (code) => fail(new Error(`load worker exited (${code})`)));
  thread = w;
  return w;
}

/** Sends `requests` to `url` from the load thread, `concurrency` at a time; answers in request order. */
export function loadFromWorker(url: string, requests: LoadRequest[], concurrency: number): Promise<Answer[]> {
  const w = loadThread();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    w.ref();
    w.postMessage({ id, job: { url, requests, concurrency } });
  });
}
