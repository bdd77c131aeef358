// A whole network for multi-process tests: a testnet
// written by src/node/testnet.ts under os.tmpdir(), one real `torana start` process per peer
// (network-peer.ts), and a TCP relay (relay.ts) in front of every ORDERED link: peer i's config lists
// peer j at the address of relay(i→j), so a test can cut, delay and heal each direction of a link.
// Chain checks go through the gateways only, as a client would see them.

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { probePeer } from '../../src/cli/testnet-status.js';
import { renderConfigToml } from '../../src/config/load.js';
import { loadKeyFile } from '../../src/crypto/keyfile.js';
import { nodeFiles } from '../../src/node/files.js';
import { loadNodeConfig } from '../../src/node/load-config.js';
import { initTestnet, peerEntriesFor } from '../../src/node/testnet.js';
import { P2P_PORT_OFFSET, type TestnetManifest } from '../../src/node/testnet-manifest.js';
import { writeFileAtomic } from '../../src/util/atomic-file.js';
import { type ChainComparison, chainDifference, type PeerBlock } from './network-chain.js';
import type { LoadAccount } from './network-load.js';
import { PeerProcess } from './network-peer.js';
import { PORT_RESERVATIONS_DIR, releaseBase, reserveBase } from './port-reservation.js';
import { type Relay, startRelay } from './relay.js';

export interface TestNetworkOptions {
  validators: number;
  observers?: number;
  chainId?: string;
  /** Dotted config keys for every peer (e.g. `block.min_interval_ms`). */
  config?: Record<string, unknown>;
  /** Keep the directory after stop() (to look at a failure). */
  keepDir?: boolean;
}

/** Config every test peer gets unless the test says otherwise: no worker threads on 2 cores. */
const TEST_PEER_CONFIG: Readonly<Record<string, unknown>> = { 'verify.threads': 0 };

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/**
 * The base ports of test networks: below Linux's ephemeral range (32768–60999), since relays listen on
 * port 0 and every outgoing connection takes an ephemeral port, either of which could otherwise take a
 * peer's port before it starts. A network at `base` listens on `base + i` (gateways) and
 * `base + P2P_PORT_OFFSET + i` (p2p): bases lie 2 × P2P_PORT_OFFSET apart, so one network's p2p ports are
 * never another's gateway ports (two networks reserving neighbouring bases at once would otherwise both find
 * the shared ports free and collide when they listen).
 */
export const BASE_PORTS: readonly number[] = Array.from(
  { length: 63 },
  (_, i) => 20_000 + i * 2 * P2P_PORT_OFFSET,
);

/**
 * A base port reserved for this caller (port-reservation.ts: no other test process of this machine, nor
 * another network of this process, gets it until it is released or its process exits) whose `n` gateway
 * ports and `n` p2p ports (+P2P_PORT_OFFSET) are free right now. Every base is tried once, in a random
 * order. `reservations`: the folder of the reservations (a test's own; default the machine's).
 */
export async function freeBasePort(n: number, reservations = PORT_RESERVATIONS_DIR): Promise<number> {
  const order = [...BASE_PORTS];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  for (const base of order) {
    if (!reserveBase(base, reservations)) continue;
    const ports = Array.from({ length: n }, (_, i) => [base + i, base + P2P_PORT_OFFSET + i]).flat();
    if ((await Promise.all(ports.map(portFree))).every(Boolean)) return base;
    releaseBase(base, reservations);
  }
  throw new Error(`no free range of ${n} + ${n} ports found`);
}

export class TestNetwork {
  /** relays[i][j]: the relay peer i dials to reach peer j (undefined on the diagonal). */
  private readonly relays: (Relay | undefined)[][];

  private constructor(
    readonly dir: string,
    readonly manifest: TestnetManifest,
    readonly peers: PeerProcess[],
    relays: (Relay | undefined)[][],
    private readonly keepDir: boolean,
    private readonly basePort: number,
  ) {
    this.relays = relays;
  }

  /** Writes the testnet and its relays; no process runs until start(). */
  static async create(opts: TestNetworkOptions): Promise<TestNetwork> {
    const dir = await mkdtemp(join(tmpdir(), 'torana-net-'));
    const n = opts.validators + (opts.observers ?? 0);
    const basePort = await freeBasePort(n);
    const manifest = await initTestnet({
      dir: join(dir, 'net'),
      validators: opts.validators,
      observers: opts.observers ?? 0,
      basePort,
      chainId: opts.chainId ?? 'torana-net-test',
      overrides: { ...TEST_PEER_CONFIG, ...opts.config },
    });
    const relays: (Relay | undefined)[][] = [];
    for (const from of manifest.peers) {
      const row: (Relay | undefined)[] = [];
      for (const to of manifest.peers) {
        const port = Number(to.p2pAddress.split(':').pop());
        row.push(from.index === to.index ? undefined : await startRelay(port));
      }
      relays.push(row);
    }
    for (const p of manifest.peers) {
      const entries = peerEntriesFor(manifest, p.index, (j) => relays[p.index]![j]!.address);
      await rewritePeers(p.dir, entries);
    }
    const peers = manifest.peers.map(
      (p) => new PeerProcess({ dir: p.dir, url: p.gatewayUrl, label: `peer-${p.index}` }),
    );
    return new TestNetwork(dir, manifest, peers, relays, opts.keepDir ?? false, basePort);
  }

  get size(): number {
    return this.peers.length;
  }

  peer(i: number): PeerProcess {
    const p = this.peers[i];
    if (p === undefined) throw new Error(`no peer ${i} in a network of ${this.size}`);
    return p;
  }

  /** The genesis admin account (holds `Admin`) and its key, from the testnet's admin directory. */
  async admin(): Promise<LoadAccount> {
    const files = nodeFiles(this.manifest.adminDir!);
    const client = JSON.parse(await readFile(files.client, 'utf8')) as { account: string };
    return { id: client.account, key: await loadKeyFile(files.adminKey) };
  }

  /** The relay of the ordered link i→j (the connections peer i dials to peer j). */
  relay(i: number, j: number): Relay {
    const r = this.relays[i]?.[j];
    if (r === undefined) throw new Error(`no link ${i}→${j}`);
    return r;
  }

  /** Starts the given peers (default all) and waits until each answers /health. */
  async start(which: number[] = this.peers.map((_, i) => i), timeoutMs = 180_000): Promise<void> {
    for (const i of which) this.peer(i).start();
    await Promise.all(which.map((i) => this.peer(i).waitReady(timeoutMs)));
  }

  /** Stops every peer, closes the relays, removes the directory (unless keepDir). */
  async stop(): Promise<void> {
    await Promise.all(this.peers.map((p) => p.stop()));
    await Promise.all(this.relays.flat().map((r) => r?.close()));
    releaseBase(this.basePort);
    if (!this.keepDir) await rm(this.dir, { recursive: true, force: true });
  }

  /** Cuts the link between i and j in both directions (live connections dropped, new ones refused). */
  cut(i: number, j: number): void {
    this.relay(i, j).cut();
    this.relay(j, i).cut();
  }

  heal(i: number, j: number): void {
    this.relay(i, j).heal();
    this.relay(j, i).heal();
  }

  /** Cuts every link between a peer of `a` and a peer of `b`; links inside each group stay. */
  partition(a: number[], b: number[]): void {
    for (const i of a) for (const j of b) this.cut(i, j);
  }

  healAll(): void {
    for (const r of this.relays.flat()) r?.heal();
  }

  /** Adds `ms` of latency to both directions of the link between i and j. */
  delay(i: number, j: number, ms: number): void {
    this.relay(i, j).delay(ms);
    this.relay(j, i).delay(ms);
  }

  /** Chain height of each peer (GET /status `blocks`); undefined for a peer that does not answer. */
  async heights(which: number[] = this.peers.map((_, i) => i)): Promise<(number | undefined)[]> {
    return Promise.all(
      which.map((i) =>
        this.peer(i)
          .getJson<{ blocks: number }>('/status', 2000)
          .then(
            (s) => s.blocks,
            () => undefined,
          ),
      ),
    );
  }

  /** Indexes of the peers running and not paused. */
  live(): number[] {
    return this.peers.flatMap((p, i) => (p.running && !p.paused ? [i] : []));
  }

  /** Waits until every listed peer (default: the live ones) has at least height `h`. */
  async waitForHeight(h: number, which?: number[], timeoutMs = 30_000): Promise<number[]> {
    const peers = which ?? this.live();
    const deadline = Date.now() + timeoutMs;
    let last: (number | undefined)[] = [];
    while (Date.now() < deadline) {
      last = await this.heights(peers);
      if (last.every((x) => x !== undefined && x >= h)) return last as number[];
      await sleep(200);
    }
    throw new Error(
      `height ${h} not reached within ${timeoutMs} ms: ${peers.map((i, k) => `peer-${i}=${last[k]}`).join(' ')}`,
    );
  }

  /**
   * Every block (hash, state root) of every listed peer up to the lowest of their heights, compared
   * height by height; the first difference is reported. Peers default to the live ones.
   */
  async compareChains(which?: number[]): Promise<ChainComparison> {
    const peers = which ?? this.live();
    const heights = await this.heights(peers);
    if (heights.some((h) => h === undefined))
      throw new Error(`compareChains: a peer does not answer: ${heights.join(',')}`);
    const top = Math.min(...(heights as number[]));
    const blocks: PeerBlock[][] = await Promise.all(
      peers.map(async (i) => {
        const out: PeerBlock[] = [];
        for (let h = 1; h <= top; h++)
          out.push(await this.peer(i).getJson<PeerBlock>(`/v1/explorer/blocks/${h}`));
        return out;
      }),
    );
    return chainDifference(peers, blocks, top);
  }

  /** compareChains, throwing with the first difference. */
  async assertSameChains(which?: number[]): Promise<number> {
    const c = await this.compareChains(which);
    if (c.difference !== undefined) throw new Error(`chains differ: ${JSON.stringify(c.difference)}`);
    return c.heightsCompared;
  }

  /**
   * The leader each live peer reports (GET /v1/consensus/leader, as `torana testnet up` shows it),
   * as a peer index of this network, and the one most of them name.
   */
  async leader(): Promise<{ leader: number | undefined; byPeer: (number | undefined)[] }> {
    const live = new Set(this.live());
    const byPeer = await Promise.all(
      this.peers.map((_, i) =>
        live.has(i) ? probePeer(this.manifest, i, 2000).then((s) => s.leader) : undefined,
      ),
    );
    const votes = new Map<number, number>();
    for (const l of byPeer) if (l !== undefined) votes.set(l, (votes.get(l) ?? 0) + 1);
    const best = [...votes].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0];
    return { leader: best?.[0], byPeer };
  }
}

/** Replaces `network.peers` in a peer's config.toml, keeping every other key it has. */
async function rewritePeers(peerDir: string, entries: string[]): Promise<void> {
  const config = await loadNodeConfig({ dir: peerDir, overrides: { 'network.peers': entries } });
  const text = renderConfigToml(config, { onlyNonDefault: true });
  await writeFileAtomic(nodeFiles(peerDir).config, text, 0o600);
}
