// Starts an HTTP server script in its own process, waits for its `LISTENING <url>` line, and hands
// every later stdout line to `onLine` (the node server reports commit counts that way).

import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** A server that has not said where it listens within this is a bench failure, not a hang. */
const LISTEN_TIMEOUT_MS = 180_000;

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export function startServerProcess(
  script: URL,
  args: string[] = [],
  onLine: (line: string) => void = () => {},
  nodeFlags: string[] = [],
  listenTimeoutMs = LISTEN_TIMEOUT_MS,
): Promise<ServerProcess> {
  const child = spawn(
    process.execPath,
    [...nodeFlags, '--conditions=torana-source', '--import', 'tsx', fileURLToPath(script), ...args],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let err = '';
  child.stderr?.setEncoding('utf8').on('data', (d: string) => {
    err = (err + d).slice(-4000);
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('close', () => resolve());
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${fileURLToPath(script)} did not start listening: ${err}`));
    }, listenTimeoutMs);
    let pending = '';
    let listening = false;
    child.stdout?.setEncoding('utf8').on('data', (d: string) => {
      pending += d;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const m = listening ? null : /^LISTENING (\S+)/.exec(line);
        if (m !== null) {
          listening = true;
          clearTimeout(timer);
          resolve({ url: m[1]!, child, stop });
        } else onLine(line);
      }
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      if (!listening)
        reject(new Error(`${fileURLToPath(script)} exited with ${code} before listening: ${err}`));
    });
  });
}
