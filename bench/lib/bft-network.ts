// A local BFT network for the bft4_* figures: a testnet written by
// src/node/testnet.ts (what `torana testnet init` writes) under os.tmpdir(), one `torana start --dir`
// process per peer (the CLI run from source, bft-peer-cli.ts), the bench accounts registered and funded
// by one admin transaction, and a CommitTracker subscribed to every peer's event stream.
// Configuration: the node's defaults except the settings listed in BFT_NETWORK_CONFIG (reported with
// the figures), on top of what `testnet init` itself sets.

import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { leaderPeerIndex } from '../../src/cli/testnet-status.js';
import { transactionHash } from '../../src/model/transaction.js';
import { initTestnet } from '../../src/node/testnet.js';
import { P2P_PORT_OFFSET, type TestnetManifest } from '../../src/node/testnet-manifest.js';
import { toHex } from '../../src/util/hex.js';
import { buildTx, frameTx, type TestAccount } from '../../test/helpers/tx.js';
import { CommitTracker } from './bft-commits.js';
import { BenchPeer } from './bft-peer.js';
import { sleep } from './timing.js';
import { adminOf, benchAccounts, setupInstructions } from './transfers.js';

export const BFT_CHAIN_ID = 'torana-bench-bft';

/**
 * On top of the node's defaults: the per-IP rate limit lifted (every request comes from 127.0.0.1) and
 * request logging off, as for the single-peer HTTP node (http-node.ts). Consensus timers are the
 * node's defaults unless a figure says otherwise.
 */
export const BFT_NETWORK_CONFIG: Readonly<Record<string, unknown>> = {
  'log.level': 'warn',
  'gateway.rate_per_ip_per_s': 1_000_000_000,
  'gateway.rate_burst': 1_000_000_000,
};

/** The fields of GET /v1/consensus/status the figures read. */
export interface ConsensusStatusJson {
  height: number;
  view: number;
  leader_index: number;
  block_time_ms: number;
  view_changes: number;
  view_change_causes: Record<string, number>;
  tx_queue: { depth: number };
  commit_qc?: { height: number; view: number };
}

export function bftNetworkNote(validators: number): string {
  return (
    `${validators} validators, one \`torana start\` process each on this machine (node defaults; per-IP ` +
    'rate limit lifted and request logging off)'
  );
}
export const BFT_NETWORK_NOTE = bftNetworkNote(4);

const READY_TIMEOUT_MS = 180_000;
const SETUP_TIMEOUT_MS = 60_000;
const IDLE_POLL_MS = 200;
const START_ATTEMPTS = 3;

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/** A base port whose n gateway ports and n p2p ports (+P2P_PORT_OFFSET) are free right now. */
async function freeBasePort(n: number): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    // Below Linux's ephemeral range (32768+), where outgoing connections would take ports meanwhile.
    const base = 11_000 + Math.floor(Math.random() * 180) * 100;
    const ports = Array.from({ length: n }, (_, i) => [base + i, base + P2P_PORT_OFFSET + i]).flat();
    if ((await Promise.all(ports.map(portFree))).every(Boolean)) return base;
  }
  throw new Error(`no free range of ${n} + ${n} ports found`);
}

export interface BftNetworkOptions {
  validators: number;
  /** More dotted config keys for every peer (e.g. consensus timers), reported by the figure. */
  config?: Record<string, unknown>;
  log(message: string): void;
}

export class BftNetwork {
  private constructor(
    readonly root: string,
    readonly manifest: TestnetManifest,
    readonly peers: BenchPeer[],
    readonly accounts: TestAccount[],
    readonly tracker: CommitTracker,
  ) {}

  get urls(): string[] {
    return this.peers.map((p) => p.url);
  }

  /**
   * Writes, starts and funds a network; every peer answers /health and follows commits when it
   * resolves. A port taken between the check and the listen (other work on the machine) means a new
   * network on other ports, up to START_ATTEMPTS times.
   */
  static async start(opts: BftNetworkOptions): Promise<BftNetwork> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await BftNetwork.#startOnce(opts);
      } catch (e) {
        if (attempt >= START_ATTEMPTS || !String(e).includes('EADDRINUSE')) throw e;
        opts.log(`a port was taken meanwhile (attempt ${attempt}); starting again on other ports`);
      }
    }
  }

  static async #startOnce(opts: BftNetworkOptions): Promise<BftNetwork> {
    const root = await mkdtemp(join(tmpdir(), 'torana-bench-bft-'));
    const peers: BenchPeer[] = [];
    try {
      const manifest = await initTestnet({
        dir: join(root, 'net'),
        validators: opts.validators,
        basePort: await freeBasePort(opts.validators),
        chainId: BFT_CHAIN_ID,
        overrides: { ...BFT_NETWORK_CONFIG, ...opts.config },
      });
      peers.push(...manifest.peers.map((p) => new BenchPeer(p.dir, p.gatewayUrl)));
      for (const p of peers) p.start();
      const deadline = Date.now() + READY_TIMEOUT_MS;
      await Promise.all(peers.map((p) => p.waitReady(deadline)));
      opts.log(`${peers.length} peers serving; funding the bench accounts`);
      const tracker = await CommitTracker.open(peers.map((p) => p.url));
      const net = new BftNetwork(root, manifest, peers, benchAccounts(), tracker);
      await net.#fund();
      return net;
    } catch (e) {
      await Promise.all(peers.map((p) => p.kill9()));
      await rm(root, { recursive: true, force: true });
      throw e;
    }
  }

  async #fund(): Promise<void> {
    // The genesis admin key is in the testnet's admin directory, never in a peer's.
    const admin = await adminOf(this.manifest.adminDir!);
    const tx = buildTx(admin, setupInstructions(this.accounts), { chainId: BFT_CHAIN_ID });
    const hash = toHex(transactionHash(tx));
    const r = await fetch(`${this.urls[0]}/transaction`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-codec' },
      body: frameTx(tx),
    });
    await r.arrayBuffer();
    if (r.status !== 202) throw new Error(`bench setup answered HTTP ${r.status}`);
    const deadline = Date.now() + SETUP_TIMEOUT_MS;
    while (this.tracker.committedAtAll(hash) === undefined) {
      if (Date.now() > deadline) throw new Error('bench setup not committed at every peer in time');
      await sleep(50);
    }
  }

  /**
   * The leader the running peers name most often (GET /v1/consensus/status `leader_index`, mapped to
   * a peer index), with the committed height they report.
   */
  async leader(): Promise<{ peer: number | undefined; height: number }> {
    const votes = new Map<number, number>();
    let height = 0;
    for (const s of await this.statuses()) {
      if (s === undefined) continue;
      const l = leaderPeerIndex(this.manifest, s.leader_index);
      if (l !== undefined) votes.set(l, (votes.get(l) ?? 0) + 1);
      height = Math.max(height, s.height);
    }
    const best = [...votes].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0];
    return { peer: best?.[0], height };
  }

  /** GET /v1/consensus/status of every running peer (undefined for one that does not answer). */
  async statuses(): Promise<(ConsensusStatusJson | undefined)[]> {
    return Promise.all(
      this.peers.map((p, i) =>
        p.running
          ? this.getJson<ConsensusStatusJson>(i, '/v1/consensus/status').catch(() => undefined)
          : undefined,
      ),
    );
  }

  /**
   * Waits until every running peer reports the same committed height and an empty transaction queue
   * twice in a row (IDLE_POLL_MS apart); resolves with that height.
   */
  async waitIdle(timeoutMs: number): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    let previous = -1;
    while (Date.now() < deadline) {
      const running = (await this.statuses()).filter((_, i) => this.peers[i]!.running);
      const heights = new Set(running.map((s) => s?.height));
      const h = running[0]?.height ?? -1;
      const idle = heights.size === 1 && running.every((s) => s !== undefined && s.tx_queue.depth === 0);
      if (idle && h === previous) return h;
      previous = idle ? h : -1;
      await sleep(IDLE_POLL_MS);
    }
    throw new Error(`the network did not become idle within ${timeoutMs} ms`);
  }

  /** GET a JSON route of one peer. */
  async getJson<T>(peer: number, path: string): Promise<T> {
    const r = await fetch(`${this.urls[peer]}${path}`, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(5000),
    });
    if (r.status !== 200) throw new Error(`peer ${peer} GET ${path}: HTTP ${r.status}`);
    return (await r.json()) as T;
  }

  /** Starts a stopped peer again, waits for /health, and follows its commits again. */
  async restart(peer: number): Promise<void> {
    const p = this.peers[peer]!;
    p.start();
    await p.waitReady(Date.now() + READY_TIMEOUT_MS);
    await this.tracker.reconnect(peer, p.url);
  }

  async kill9(peer: number): Promise<void> {
    this.tracker.drop(peer);
    await this.peers[peer]?.kill9();
  }

  async stop(): Promise<void> {
    this.tracker.close();
    await Promise.all(this.peers.map((p) => p.stop()));
    await rm(this.root, { recursive: true, force: true });
  }
}
