// Runs crash-child.ts in a real process and collects what it announced. The parent either SIGKILLs it
// a chosen time after its first announcement (the "kill -9 under load" test) or lets an armed fail
// point kill it (the fail-point matrix); a safety timeout turns a child that never dies into a test
// failure instead of a hang.

import { spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { initNodeDir } from '../../src/node/init.js';
import { FAILPOINT_ENV } from '../../src/util/failpoints.js';
import { tsEntryArgs } from '../helpers/ts-entry.js';

const CHILD = fileURLToPath(new URL('./crash-child.ts', import.meta.url));
/** A run that neither ends nor is killed within this is stopped and reported as timed out. */
export const CHILD_TIMEOUT_MS_DEFAULT = 30_000;

/** Configuration every crash-test node directory gets (written into its config.toml by init). */
export const CRASH_NODE_CONFIG: Readonly<Record<string, unknown>> = {
  'gateway.port': 0,
  'node.chain_id': 'torana-crash',
  'storage.fsync': true,
  // Small segments, so the `blocklog.segment-created` fail point is reached after a few blocks and
  // recovery also runs across segment boundaries. A block of 512 transfers is well under this.
  'storage.segment_bytes_max': 262_144,
  'storage.record_bytes_max': 262_144,
};

export interface Announcement {
  txHash: string;
  height: number;
  blockHash: string;
}

export interface ChildRun {
  announced: Announcement[];
  /** Height the node had when it became ready, if it got that far. */
  readyHeight: number | undefined;
  signal: NodeJS.Signals | null;
  code: number | null;
  killedByParent: boolean;
  timedOut: boolean;
  stderr: string;
}

export interface ChildOptions {
  seed: number;
  /** `<name>:<n>` for TORANA_FAILPOINT. */
  failPoint?: string;
  /** SIGKILL this long after the first announcement. */
  killAfterMs?: number;
  /** The child ends by itself after this much streaming. */
  runMs?: number;
  timeoutMs?: number;
}

export async function makeNodeDir(extra: Record<string, unknown> = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'torana-crash-'));
  await initNodeDir({ dir, overrides: { ...CRASH_NODE_CONFIG, ...extra } });
  return dir;
}

function parseLine(line: string, run: ChildRun): boolean {
  const [kind, a, b, c] = line.split(' ');
  if (kind === 'READY') run.readyHeight = Number(a);
  if (kind !== 'COMMITTED' || a === undefined || b === undefined || c === undefined) return false;
  run.announced.push({ txHash: a, height: Number(b), blockHash: c });
  return true;
}

export function runCrashChild(dir: string, opts: ChildOptions): Promise<ChildRun> {
  const env = { ...process.env };
  delete env[FAILPOINT_ENV];
  if (opts.failPoint !== undefined) env[FAILPOINT_ENV] = opts.failPoint;
  const args = [...tsEntryArgs(CHILD), dir, String(opts.seed)];
  if (opts.runMs !== undefined) args.push(String(opts.runMs));
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const run: ChildRun = {
    announced: [],
    readyHeight: undefined,
    signal: null,
    code: null,
    killedByParent: false,
    timedOut: false,
    stderr: '',
  };
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  const timers: NodeJS.Timeout[] = [
    setTimeout(() => {
      run.timedOut = true;
      run.killedByParent = true;
      kill();
    }, opts.timeoutMs ?? CHILD_TIMEOUT_MS_DEFAULT),
  ];
  let pending = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    run.stderr += d;
  });
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    pending += d;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const first = run.announced.length === 0;
      if (parseLine(line, run) && first && opts.killAfterMs !== undefined) {
        timers.push(
          setTimeout(() => {
            run.killedByParent = true;
            kill();
          }, opts.killAfterMs),
        );
      }
    }
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      for (const t of timers) clearTimeout(t);
      // A line cut by the kill has no newline and was never complete, so it is not an announcement.
      run.code = code;
      run.signal = signal;
      resolve(run);
    });
  });
}
