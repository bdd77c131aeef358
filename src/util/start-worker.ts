// Starting a worker thread on a module of this repository, compiled or run from the sources.

import { Worker } from 'node:worker_threads';

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
