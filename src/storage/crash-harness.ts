// Test helper: runs crash-child.ts in a real child process and collects what it declared durable.

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { FAILPOINT_ENV } from '../util/failpoints.js';

const CHILD = fileURLToPath(new URL('./crash-child.ts', import.meta.url));
/** A child that neither finishes nor gets killed within this is a test failure, not a hang. */
const CHILD_TIMEOUT_MS = 30_000;

export interface ChildRun {
  /** Height → hex hash, for every `ok` line the child printed (each printed after durability). */
  durable: Map<number, string>;
  /** The height the child reported when it opened the store, if it got that far. */
  openedAt: number | undefined;
  signal: NodeJS.Signals | null;
  code: number | null;
  stderr: string;
}

export interface ChildOptions {
  failPoint?: string;
  /**
   * SIGKILL the child this long after its first durable write, so every run has something to lose
   * even on a loaded machine where starting up takes a while.
   */
  killAfterMs?: number;
  maxHeight?: number;
}

export function runChild(
  mode: 'blocklog' | 'state',
  dir: string,
  opts: ChildOptions = {},
): Promise<ChildRun> {
  const env = { ...process.env };
  delete env[FAILPOINT_ENV];
  if (opts.failPoint !== undefined) env[FAILPOINT_ENV] = opts.failPoint;
  const args = [
    '--import',
    'tsx',
    CHILD,
    mode,
    dir,
    ...(opts.maxHeight === undefined ? [] : [String(opts.maxHeight)]),
  ];
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const run: ChildRun = { durable: new Map(), openedAt: undefined, signal: null, code: null, stderr: '' };
  let pending = '';
  const timers: NodeJS.Timeout[] = [setTimeout(() => child.kill('SIGKILL'), CHILD_TIMEOUT_MS)];
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    run.stderr += d;
  });
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    pending += d;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const [kind, height, value] = line.split(' ');
      if (kind === 'open') run.openedAt = Number(height);
      if (kind !== 'ok') continue;
      if (run.durable.size === 0 && opts.killAfterMs !== undefined) {
        timers.push(setTimeout(() => child.kill('SIGKILL'), opts.killAfterMs));
      }
      run.durable.set(Number(height), value ?? '');
    }
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      for (const t of timers) clearTimeout(t);
      run.code = code;
      run.signal = signal;
      resolve(run);
    });
  });
}

export function lastHeight(durable: ReadonlyMap<number, string>): number {
  let max = 0;
  for (const h of durable.keys()) max = Math.max(max, h);
  return max;
}

/** A small seeded generator, so a failing run's delays can be replayed from the printed seed. */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}
