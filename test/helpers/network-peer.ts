// One peer of a multi-process test: a real `torana start --dir <dir>` child process (the CLI run from
// source, as test/helpers/run-cli.ts does), with the perturbations of the end-to-end testnets:
// kill -9, pause (SIGSTOP), resume (SIGCONT), restart, and a tail of its log lines for failure messages.

import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { findNodeAddress } from '../../src/cli/node-address.js';
import { ROOT } from './run-cli.js';
import { tsEntryArgs } from './ts-entry.js';

/** Log lines kept per peer (stdout and stderr interleaved, oldest dropped first). */
export const PEER_LOG_LINES_MAX = 400;

export interface PeerProcessOptions {
  /** The peer's node directory (config.toml, keys, genesis already written). */
  dir: string;
  /** Its gateway URL (from testnet.json). */
  url: string;
  /** Prefix of its lines in failure messages; defaults to the directory name. */
  label?: string;
  /** Extra environment (e.g. TORANA_FAILPOINT, TORANA_NETWORK_PEERS). */
  env?: Record<string, string>;
  /**
   * A command the node runs under, e.g. `['ip', 'netns', 'exec', 'ns1']` for a peer on a host of its
   * own (test/hosts/); it must exec the node in place, so that the pid and the signals are the node's.
   */
  wrap?: string[];
}

export interface PeerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

export class PeerProcess {
  readonly dir: string;
  /** Further `torana start` flags for the next starts (e.g. `--from-snapshot <file>`). */
  startArgs: string[] = [];
  readonly url: string;
  readonly label: string;
  private readonly env: Record<string, string>;
  private readonly wrap: string[];
  private child: ChildProcess | undefined;
  private exited: Promise<PeerExit> | undefined;
  private readonly lines: string[] = [];
  private isPaused = false;
  /** How the last run ended (undefined while running or before the first start). */
  lastExit: PeerExit | undefined;
  /** Number of times the process was started. */
  starts = 0;

  constructor(opts: PeerProcessOptions) {
    this.dir = opts.dir;
    this.url = opts.url;
    this.label = opts.label ?? opts.dir.split('/').pop() ?? 'peer';
    this.env = opts.env ?? {};
    this.wrap = opts.wrap ?? [];
  }

  get pid(): number | undefined {
    return this.running ? this.child?.pid : undefined;
  }

  get running(): boolean {
    return this.child !== undefined && this.lastExit === undefined;
  }

  get paused(): boolean {
    return this.running && this.isPaused;
  }

  /** Spawns the process (does not wait for it to serve: see waitReady). */
  start(): void {
    if (this.running) throw new Error(`${this.label} is already running (pid ${this.child?.pid})`);
    const args = [
      '--conditions=torana-source',
      ...tsEntryArgs('test/helpers/torana-cli.ts'),
      'start',
      '--dir',
      this.dir,
      ...this.startArgs,
    ];
    const [cmd, ...pre] = [...this.wrap, process.execPath];
    const child = spawn(cmd!, [...pre, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.lastExit = undefined;
    this.isPaused = false;
    this.starts++;
    for (const s of [child.stdout, child.stderr])
      createInterface({ input: s, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (l) => this.keep(l));
    this.exited = new Promise((resolve) => {
      child.on('close', (code, signal) => {
        this.lastExit = { code, signal };
        this.keep(`[exited: ${signal ?? `code ${code}`}]`);
        resolve(this.lastExit);
      });
    });
  }

  private keep(line: string): void {
    this.lines.push(line);
    if (this.lines.length > PEER_LOG_LINES_MAX) this.lines.shift();
  }

  /** The last `n` log lines (all runs of this peer, with an `[exited: …]` line after each). */
  logs(n = 40): string[] {
    return this.lines.slice(-n);
  }

  /**
   * Waits until this process serves: its address file (`<dir>/node.json`, written by `torana start`
   * once its gateway listens, genesis applied) names this process's pid, and GET /health answers 200.
   * A /health answer alone is not enough: another process (a node of another test that took the same
   * port, whose chain does not know this network's accounts) may answer at this URL while this peer is
   * still starting, about to fail on the taken port. Fails early if the process exits. A start from
   * source takes a few seconds on an idle machine, many more on a loaded one, hence the long default
   * (five peers starting at once at load 37 on 2 cores were not all serving after 60 s).
   */
  async waitReady(timeoutMs = 180_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!this.running) throw new Error(`${this.label} exited before serving:\n${this.logs().join('\n')}`);
      const found = await findNodeAddress(this.dir);
      const ok =
        found.state === 'running' &&
        found.address.pid === this.child?.pid &&
        (await fetch(`${this.url}/health`, { signal: AbortSignal.timeout(1000) }).then(
          (r) => r.status === 200,
          () => false,
        ));
      if (ok) return;
      await sleep(100);
    }
    throw new Error(`${this.label} not ready within ${timeoutMs} ms:\n${this.logs().join('\n')}`);
  }

  /** SIGKILL: no shutdown code runs (the kill -9 of the crash tests). Resolves once it is gone. */
  async kill9(): Promise<PeerExit | undefined> {
    if (!this.running) return this.lastExit;
    this.child?.kill('SIGKILL');
    return this.exited;
  }

  /** SIGSTOP: the process keeps its sockets but answers nothing, as a hung or overloaded peer. */
  pause(): void {
    if (!this.running) throw new Error(`${this.label} is not running`);
    this.child?.kill('SIGSTOP');
    this.isPaused = true;
  }

  resume(): void {
    if (!this.running) throw new Error(`${this.label} is not running`);
    this.child?.kill('SIGCONT');
    this.isPaused = false;
  }

  /** SIGTERM (after SIGCONT if paused) and wait; SIGKILL after `graceMs`. */
  async stop(graceMs = 10_000): Promise<PeerExit | undefined> {
    if (!this.running) return this.lastExit;
    if (this.isPaused) this.resume();
    this.child?.kill('SIGTERM');
    const timer = setTimeout(() => this.child?.kill('SIGKILL'), graceMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Stops the process if it runs (`kill9: true` for a crash instead), starts it again, waits for /health. */
  async restart(opts: { kill9?: boolean; timeoutMs?: number } = {}): Promise<void> {
    if (opts.kill9) await this.kill9();
    else await this.stop();
    this.start();
    await this.waitReady(opts.timeoutMs);
  }

  /** GET `path` on this peer's gateway as JSON (throws with the answer's code on a non-2xx). */
  async getJson<T = unknown>(path: string, timeoutMs = 5000): Promise<T> {
    const r = await fetch(`${this.url}${path}`, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = (await r.json()) as T & { code?: string };
    if (!r.ok) throw new Error(`${this.label} GET ${path}: HTTP ${r.status} ${body.code ?? ''}`);
    return body;
  }
}
