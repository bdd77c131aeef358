// One peer process of the bench's BFT network (bft-network.ts): `torana start --dir <peer dir>` run from
// source (bft-peer-cli.ts), with readiness on GET /health, kill -9 and a graceful stop. The tail of its
// output goes into the error when it exits before serving.

import { type ChildProcess, spawn } from 'node:child_process';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sleep } from './timing.js';

const STOP_GRACE_MS = 10_000;
const PEER_CLI = fileURLToPath(new URL('./bft-peer-cli.ts', import.meta.url));

/**
 * Extra Node flags for a peer process: BENCH_PEER_FLAGS as given (e.g. "--max-old-space-size=512"), and
 * with BENCH_PEER_PROF_DIR=<dir> a CPU profile per peer, `--cpu-prof --cpu-prof-dir=<dir>/<peer dir name>`
 * (written when the peer exits on the bench's SIGTERM; a peer killed with SIGKILL writes none).
 */
export function peerNodeFlags(peerDir: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const flags = env.BENCH_PEER_FLAGS?.split(' ').filter(Boolean) ?? [];
  const prof = env.BENCH_PEER_PROF_DIR;
  if (prof) flags.push('--cpu-prof', `--cpu-prof-dir=${join(prof, basename(peerDir))}`);
  return flags;
}

export class BenchPeer {
  child: ChildProcess | undefined;
  exited: Promise<void> = Promise.resolve();
  #log = '';

  constructor(
    readonly dir: string,
    readonly url: string,
  ) {}

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  start(): void {
    const child = spawn(
      process.execPath,
      [
        ...peerNodeFlags(this.dir),
        '--conditions=torana-source',
        '--import',
        'tsx',
        PEER_CLI,
        'start',
        '--dir',
        this.dir,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.child = child;
    for (const s of [child.stdout, child.stderr])
      s?.setEncoding('utf8').on('data', (d: string) => {
        this.#log = (this.#log + d).slice(-4000);
      });
    this.exited = new Promise((resolve) => child.once('close', () => resolve()));
  }

  async waitReady(deadlineMs: number): Promise<void> {
    while (Date.now() < deadlineMs) {
      if (!this.running) throw new Error(`peer ${this.dir} exited: ${this.#log}`);
      const ok = await fetch(`${this.url}/health`, { signal: AbortSignal.timeout(1000) }).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) return;
      await sleep(100);
    }
    throw new Error(`peer ${this.dir} not ready: ${this.#log}`);
  }

  async kill9(): Promise<void> {
    if (!this.running) return;
    this.child?.kill('SIGKILL');
    await this.exited;
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.child?.kill('SIGTERM');
    const timer = setTimeout(() => this.child?.kill('SIGKILL'), STOP_GRACE_MS);
    await this.exited;
    clearTimeout(timer);
  }
}
