// The fan-out figures' subscribers, in processes of their own (subscriber-child.ts), so that neither
// the load generator nor one another's parsing delays what a subscriber measures. Each process holds
// an even share of the SSE and WebSocket subscribers; processes are started one after another so the
// node's accept queue never overflows while thousands connect.

import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ReceiptReport } from './subscribers.js';

/** A subscriber process that has not connected its share within this is a bench failure. */
const READY_TIMEOUT_MS = 120_000;

export interface SubscriberPool {
  processes: number;
  open: number;
  /** Every process's report for the heights from..to (inclusive). */
  report(from: number, to: number): Promise<ReceiptReport[]>;
  close(): Promise<void>;
}

interface Child {
  proc: ChildProcess;
  open: number;
  next(): Promise<string>;
}

function startChild(url: string, sse: number, ws: number): Promise<Child> {
  const script = fileURLToPath(new URL('./subscriber-child.ts', import.meta.url));
  const proc = spawn(process.execPath, ['--import', 'tsx', script, url, String(sse), String(ws)], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let err = '';
  proc.stderr?.setEncoding('utf8').on('data', (d: string) => {
    err = (err + d).slice(-4000);
  });
  const lines: string[] = [];
  let waiter: ((line: string) => void) | undefined;
  let pending = '';
  proc.stdout?.setEncoding('utf8').on('data', (d: string) => {
    pending += d;
    const parts = pending.split('\n');
    pending = parts.pop() ?? '';
    for (const line of parts) {
      if (waiter === undefined) lines.push(line);
      else {
        const w = waiter;
        waiter = undefined;
        w(line);
      }
    }
  });
  const next = () =>
    new Promise<string>((resolve, reject) => {
      const line = lines.shift();
      if (line !== undefined) return resolve(line);
      if (proc.exitCode !== null) return reject(new Error(`subscriber process exited: ${err}`));
      waiter = resolve;
      proc.once('close', (code) => reject(new Error(`subscriber process exited with ${code}: ${err}`)));
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill();
      reject(new Error(`subscriber process not ready: ${err}`));
    }, READY_TIMEOUT_MS);
    next().then((line) => {
      clearTimeout(timer);
      const m = /^READY (\d+)$/.exec(line);
      if (m === null) return reject(new Error(`subscriber process said ${line.slice(0, 200)}: ${err}`));
      resolve({ proc, open: Number(m[1]), next });
    }, reject);
  });
}

function share(total: number, parts: number, i: number): number {
  return Math.floor(total / parts) + (i < total % parts ? 1 : 0);
}

/** Starts `processes` subscriber processes holding `sse` SSE and `ws` WebSocket subscribers in all. */
export async function startSubscriberPool(
  url: string,
  sse: number,
  ws: number,
  processes: number,
): Promise<SubscriberPool> {
  const children: Child[] = [];
  const closeAll = async () => {
    await Promise.all(
      children.map(
        (c) =>
          new Promise<void>((resolve) => {
            if (c.proc.exitCode !== null) return resolve();
            c.proc.once('close', () => resolve());
            c.proc.stdin?.end('CLOSE\n');
            setTimeout(() => c.proc.kill(), 5_000).unref();
          }),
      ),
    );
  };
  try {
    for (let i = 0; i < processes; i++)
      children.push(await startChild(url, share(sse, processes, i), share(ws, processes, i)));
  } catch (e) {
    await closeAll();
    throw e;
  }
  return {
    processes,
    open: children.reduce((n, c) => n + c.open, 0),
    report: (from, to) =>
      Promise.all(
        children.map(async (c) => {
          c.proc.stdin?.write(`REPORT ${from} ${to}\n`);
          const line = await c.next();
          if (!line.startsWith('REPORT ')) throw new Error(`subscriber process said ${line.slice(0, 200)}`);
          return JSON.parse(line.slice('REPORT '.length)) as ReceiptReport;
        }),
      ),
    close: closeAll,
  };
}
