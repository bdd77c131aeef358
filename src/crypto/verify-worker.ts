// Entry point of one verification worker thread (see verify-pool.ts). It answers each batch
// with one byte per item; any exception is left uncaught on purpose so the thread dies and the
// pool rejects the batch with `verify_worker_crashed` instead of answering wrongly.
import { parentPort } from 'node:worker_threads';
import { verifyBatch } from './verify-batch.js';

interface BatchRequest {
  id: number;
  batch: ArrayBuffer;
}

const port = parentPort;
if (port === null) throw new Error('verify-worker.ts must run as a worker thread');
port.on('message', (request: BatchRequest) => {
  const results = verifyBatch(request.batch).buffer as ArrayBuffer;
  port.postMessage({ id: request.id, results }, [results]);
});
