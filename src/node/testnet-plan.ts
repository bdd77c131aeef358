// Where the peers of `torana testnet init` live: one host per peer (`--hosts h1,h2,…`, or 127.0.0.1 for
// all), or a manifest file naming each peer's role, host and ports (`--manifest file`). A peer listens on
// and advertises `host:port`; the manifest may give a separate `listen_host` (e.g. 0.0.0.0 behind NAT).

import { readFile } from 'node:fs/promises';
import { parseHostPort } from '../p2p/address.js';
import { P2P_PORT_OFFSET, TESTNET_HOST, TESTNET_PEERS_MAX, TestnetError } from './testnet-manifest.js';

export interface PeerPlan {
  role: 'validator' | 'observer';
  /** The address other peers and clients reach it at. */
  host: string;
  /** The address its gateway and p2p listener bind (the host unless a manifest says otherwise). */
  listenHost: string;
  gatewayPort: number;
  p2pPort: number;
}

function checkHost(host: string, where: string): void {
  if (parseHostPort(`${host}:1`) === undefined && parseHostPort(`[${host}]:1`) === undefined)
    throw new TestnetError('testnet_invalid_hosts', `${where}: "${host}" is not a host name or address`);
}

/** `host:port`, brackets around an IPv6 address. */
export function hostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/**
 * The plan of `validators` + `observers` peers on `hosts` (one per peer; default all on 127.0.0.1).
 * The k-th peer on a host gets gateway port base + k and p2p port base + 100 + k, so peers on
 * separate machines share the port numbers and peers on one machine do not collide.
 */
export function planFromHosts(
  validators: number,
  observers: number,
  basePort: number,
  hosts?: readonly string[],
): PeerPlan[] {
  const total = validators + observers;
  const list = hosts ?? Array.from({ length: total }, () => TESTNET_HOST);
  if (list.length !== total)
    throw new TestnetError(
      'testnet_invalid_hosts',
      `--hosts names ${list.length} hosts for ${total} peers (${validators} validators + ${observers} observers): give one host per peer`,
    );
  const seen = new Map<string, number>();
  return list.map((raw, i) => {
    const host = raw.trim();
    checkHost(host, `--hosts[${i}]`);
    const k = seen.get(host) ?? 0;
    seen.set(host, k + 1);
    return {
      role: i < validators ? 'validator' : 'observer',
      host,
      listenHost: host,
      gatewayPort: basePort + k,
      p2pPort: basePort + P2P_PORT_OFFSET + k,
    };
  });
}

function port(v: unknown, where: string): number {
  if (!Number.isInteger(v) || (v as number) < 1 || (v as number) > 65_535)
    throw new TestnetError('testnet_invalid_port', `${where}: expected a port in 1..65535`);
  return v as number;
}

/**
 * A manifest file: `{ "peers": [ { "role": "validator" | "observer", "host": "…", "gateway_port": n,
 * "p2p_port": n, "listen_host"?: "…" } ] }`, validators first is not required. `testnet_invalid_manifest`
 * when it is not that shape.
 */
export function planFromManifest(json: unknown): PeerPlan[] {
  const peers = (json as { peers?: unknown } | null)?.peers;
  if (!Array.isArray(peers) || peers.length === 0)
    throw new TestnetError('testnet_invalid_manifest', 'the manifest must hold a non-empty "peers" array');
  if (peers.length > TESTNET_PEERS_MAX)
    throw new TestnetError('testnet_invalid_size', `a testnet holds at most ${TESTNET_PEERS_MAX} peers`);
  return peers.map((x, i): PeerPlan => {
    const p = (typeof x === 'object' && x !== null ? x : {}) as Record<string, unknown>;
    const where = `manifest peers[${i}]`;
    if (p.role !== 'validator' && p.role !== 'observer')
      throw new TestnetError('testnet_invalid_manifest', `${where}.role: expected validator or observer`);
    if (typeof p.host !== 'string')
      throw new TestnetError('testnet_invalid_manifest', `${where}.host: expected a string`);
    const listen = p.listen_host ?? p.host;
    if (typeof listen !== 'string')
      throw new TestnetError('testnet_invalid_manifest', `${where}.listen_host: expected a string`);
    checkHost(p.host, `${where}.host`);
    checkHost(listen, `${where}.listen_host`);
    return {
      role: p.role,
      host: p.host,
      listenHost: listen,
      gatewayPort: port(p.gateway_port, `${where}.gateway_port`),
      p2pPort: port(p.p2p_port, `${where}.p2p_port`),
    };
  });
}

export async function readManifestPlan(path: string): Promise<PeerPlan[]> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch (e) {
    throw new TestnetError('testnet_invalid_manifest', `cannot read ${path}: ${(e as Error).message}`);
  }
  return planFromManifest(json);
}

/** Refuses a plan without validators, or two listeners on one host and port. */
export function checkPlan(plan: readonly PeerPlan[]): void {
  if (!plan.some((p) => p.role === 'validator'))
    throw new TestnetError('testnet_invalid_size', 'a testnet needs at least one validator');
  const used = new Set<string>();
  for (const p of plan)
    for (const at of [hostPort(p.host, p.gatewayPort), hostPort(p.host, p.p2pPort)]) {
      if (used.has(at)) throw new TestnetError('testnet_invalid_port', `two listeners on ${at}`);
      used.add(at);
    }
}
