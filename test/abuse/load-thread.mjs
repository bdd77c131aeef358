// The thread body of load-worker.ts, in plain JavaScript so that a worker runs it without the TypeScript
// loader: for each job posted to it ({id, job: {url, requests, concurrency}}) it sends job.requests to
// job.url, `concurrency` at a time, and posts back {id, answers} with one answer per request ({status,
// code?, total?, cursor?, ms}) in request order, or {id, error}. One thread serves every job of a process.

import { parentPort } from 'node:worker_threads';
import { Pool } from 'undici';

async function one(pool, r) {
  const started = performance.now();
  const type = typeof r.body === 'string' ? 'application/json' : 'application/x-codec';
  const headers = { accept: 'application/json' };
  if (r.body !== undefined) headers['content-type'] = type;
  const body = r.body === undefined ? undefined : typeof r.body === 'string' ? r.body : Buffer.from(r.body);
  const res = await pool.request({ method: r.method, path: r.path, headers, body });
  const text = await res.body.text();
  const json = text.startsWith('{') ? JSON.parse(text) : {};
  const answer = { status: res.statusCode, ms: performance.now() - started };
  if (json.code !== undefined) answer.code = json.code;
  if (json.total !== undefined) answer.total = json.total;
  if (json.cursor !== undefined) answer.cursor = true;
  return answer;
}

async function runJob(job) {
  const pool = new Pool(job.url, { connections: job.concurrency });
  const out = new Array(job.requests.length);
  let next = 0;
  const lane = async () => {
    while (next < job.requests.length) {
      const i = next++;
      out[i] = await one(pool, job.requests[i]);
    }
  };
  try {
    await Promise.all(Array.from({ length: job.concurrency }, lane));
  } finally {
    await pool.close();
  }
  return out;
}

parentPort.on('message', ({ id, job }) => {
  runJob(job).then(
    (answers) => parentPort.postMessage({ id, answers }),
    (e) => parentPort.postMessage({ id, error: String(e) }),
  );
});
