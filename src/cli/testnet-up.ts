// `torana testnet up`: runs every peer of a testnet as a child process (`torana start --dir
// <dir>/peer-<i>`, the same program that runs this command), prefixes their log lines with `peer-<i>`,
// prints one status line per second (testnet-status.ts), and on SIGINT/SIGTERM forwards the signal to
// every child, waits for them to stop, and kills those still running after the grace period.

import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { TestnetManifest } from '../node/testnet-manifest.js';
import { changeFilter, type PeerStatus, probePeer, statusLine } from './testnet-status.js';

export interface SupervisorOptions {
  manifest: TestnetManifest;
  /** The command line of peer `dir`; defaults to this program: `torana start --dir <dir>`. */
  command?: (dir: string) => { file: string; args: string[] };
  write: (line: string) => void;
  /** Status lines as JSON documents (one per line) instead of text. */
  json?: boolean;
  statusIntervalMs?: number;
  graceMs?: number;
  /** Resolves when the network should stop (a signal); testnet-actions.ts wires SIGINT/SIGTERM. */
  stopSignal: Promise<NodeJS.Signals>;
  /** Resolves when the peers should be killed at once, without waiting for the grace period (a second Ctrl-C). */
  forceSignal?: Promise<unknown>;
}

export function sameProgram(dir: string): { file: string; args: string[] } {
  // process.execArgv keeps loaders such as tsx, so a run from source starts its peers from source too.
  return { file: process.execPath, args: [...process.execArgv, process.argv[1]!, 'start', '--dir', dir] };
}

function prefixLines(child: ChildProcess, label: string, write: (line: string) => void): void {
  for (const stream of [child.stdout, child.stderr]) {
    if (stream === null) continue;
    createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (l) =>
      write(`${label} | ${l}`),
    );
  }
}

/** Runs the network until `stopSignal`; resolves with the exit code (0 = every peer stopped cleanly). */
export async function superviseTestnet(opts: SupervisorOptions): Promise<number> {
  const { manifest, write } = opts;
  const command = opts.command ?? sameProgram;
  const graceMs = opts.graceMs ?? 10_000;
  const started = Date.now();
  let stopping = false;
  let failures = 0;
  const exits = manifest.peers.map((p) => {
    const { file, args } = command(p.dir);
    // Own process group: Ctrl-C in a terminal reaches this process only, which forwards it once (a
    // second SIGINT would find no handler left in the peer and kill it uncleanly).
    const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const label = `peer-${p.index}`;
    prefixLines(child, label, write);
    const exited = new Promise<void>((resolve) => {
      child.on('error', (e) => write(`${label} | cannot start: ${e.message}`));
      child.on('close', (code, signal) => {
        if (!stopping || code !== 0) failures++;
        write(`${label} exited (${signal ?? `code ${code}`})`);
        resolve();
      });
    });
    return { child, exited, closed: false };
  });
  for (const e of exits) void e.exited.then(() => (e.closed = true));
  // If this process goes away without stopping them (an uncaught error), the peers go with it.
  const orphanGuard = () => {
    for (const e of exits) if (!e.closed) e.child.kill('SIGKILL');
  };
  process.on('exit', orphanGuard);
  const timer = statusLoop(opts, started);
  const allExited = Promise.all(exits.map((e) => e.exited));
  const signal = await Promise.race([opts.stopSignal, allExited.then(() => undefined)]);
  stopping = true;
  clearInterval(timer);
  if (signal !== undefined) {
    write(`${signal}: stopping ${exits.filter((e) => !e.closed).length} peers (grace ${graceMs} ms)`);
    for (const e of exits) if (!e.closed) e.child.kill(signal);
    const killAll = (why: string) => {
      for (const e of exits)
        if (!e.closed) {
          write(`peer-${exits.indexOf(e)} ${why}: killing it`);
          e.child.kill('SIGKILL');
        }
    };
    const grace = setTimeout(() => killAll(`did not stop within ${graceMs} ms`), graceMs);
    void opts.forceSignal?.then(() => killAll('still running after a second signal'));
    await allExited;
    clearTimeout(grace);
  }
  process.off('exit', orphanGuard);
  return failures === 0 && signal !== undefined ? 0 : 1;
}

function statusLoop(opts: SupervisorOptions, started: number): NodeJS.Timeout {
  let busy = false;
  const changed = changeFilter();
  return setInterval(async () => {
    if (busy) return;
    busy = true;
    try {
      const interval = opts.statusIntervalMs ?? 1000;
      const statuses: PeerStatus[] = await Promise.all(
        opts.manifest.peers.map((p) => probePeer(opts.manifest, p.index, Math.max(100, interval - 100))),
      );
      // A line only when something changed (heights, views, connections, who is up, the leader).
      if (!changed(statuses)) return;
      const elapsedMs = Date.now() - started;
      opts.write(
        opts.json
          ? JSON.stringify({ elapsed_ms: elapsedMs, peers: statuses })
          : statusLine(elapsedMs, statuses),
      );
    } finally {
      busy = false;
    }
  }, opts.statusIntervalMs ?? 1000);
}
