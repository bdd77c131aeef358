// `<dir>/testnet.json`: what `torana testnet init` wrote (one entry per peer) and what `torana testnet
// up` and the multi-process test harness read. Kept apart from testnet.ts so that readers do not load
// the key and genesis code.

import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/** Peers of one testnet at most (`torana testnet init` refuses more). */
export const TESTNET_PEERS_MAX = 32;
/** Gateway of peer i on base + i; its p2p listener on base + P2P_PORT_OFFSET + i. */
export const TESTNET_DEFAULT_BASE_PORT = 9100;
export const P2P_PORT_OFFSET = 100;
/** The host of every peer unless `--hosts` or a manifest names others: loopback. */
export const TESTNET_HOST = '127.0.0.1';

export type TestnetErrorCode =
  | 'testnet_dir_not_empty'
  | 'testnet_invalid_size'
  | 'testnet_invalid_port'
  | 'testnet_invalid_config'
  | 'testnet_invalid_hosts'
  | 'testnet_invalid_manifest'
  | 'testnet_invalid_admin_dir'
  | 'testnet_not_found';

/** An operating error of the testnet commands, with a stable code (src/cli/README.md "testnet"). */
export class TestnetError extends Error {
  override readonly name = 'TestnetError';
  constructor(
    readonly code: TestnetErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface TestnetPeer {
  index: number;
  role: 'validator' | 'observer';
  /** Absolute path of the peer's node directory (`<dir>/peer-<index>`). */
  dir: string;
  gatewayUrl: string;
  /** `host:port` of its p2p listener (`network.listen`). */
  p2pAddress: string;
  /** Its node public key text (`ed0120…`), the id other peers list it under. */
  peerId: string;
}

export interface TestnetManifest {
  chainId: string;
  peers: TestnetPeer[];
  /**
   * Absolute path of the directory holding the genesis admin key, the bridge key and client settings
   * that sign as the admin (never inside a peer directory); undefined in a manifest written before it.
   */
  adminDir?: string;
}

export function testnetFile(dir: string): string {
  return join(resolve(dir), 'testnet.json');
}

/** The file's form: snake_case keys, as every JSON file of a node directory (genesis.json, client.json). */
export function testnetToJson(m: TestnetManifest): Record<string, unknown> {
  return {
    chain_id: m.chainId,
    ...(m.adminDir === undefined ? {} : { admin_dir: m.adminDir }),
    peers: m.peers.map((p) => ({
      index: p.index,
      role: p.role,
      dir: p.dir,
      gateway_url: p.gatewayUrl,
      p2p_address: p.p2pAddress,
      peer_id: p.peerId,
    })),
  };
}

function peerFromJson(x: unknown, i: number): TestnetPeer | undefined {
  if (typeof x !== 'object' || x === null) return undefined;
  const p = x as Record<string, unknown>;
  const { index, role, dir, gateway_url, p2p_address, peer_id } = p;
  if (
    index !== i ||
    (role !== 'validator' && role !== 'observer') ||
    typeof dir !== 'string' ||
    typeof gateway_url !== 'string' ||
    typeof p2p_address !== 'string' ||
    typeof peer_id !== 'string'
  )
    return undefined;
  return { index: i, role, dir, gatewayUrl: gateway_url, p2pAddress: p2p_address, peerId: peer_id };
}

/** Reads `<dir>/testnet.json`; `testnet_not_found` when it is missing or malformed. */
export async function loadTestnet(dir: string): Promise<TestnetManifest> {
  const path = testnetFile(dir);
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch (e) {
    throw new TestnetError(
      'testnet_not_found',
      `cannot read ${path} (${(e as Error).message}); write one with: torana testnet init --validators N --dir ${dir}`,
    );
  }
  const m = json as { chain_id?: unknown; peers?: unknown; admin_dir?: unknown } | null;
  const peers = Array.isArray(m?.peers) ? m.peers.map(peerFromJson) : [];
  if (typeof m?.chain_id !== 'string' || peers.length === 0 || peers.some((p) => p === undefined))
    throw new TestnetError('testnet_not_found', `${path} is not a testnet description`);
  const adminDir = typeof m.admin_dir === 'string' ? { adminDir: m.admin_dir } : {};
  return { chainId: m.chain_id, peers: peers as TestnetPeer[], ...adminDir };
}
