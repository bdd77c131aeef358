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
/** Every testnet peer listens on loopback only. */
export const TESTNET_HOST = '127.0.0.1';

export type TestnetErrorCode =
  | 'testnet_dir_not_empty'
  | 'testnet_invalid_size'
  | 'testnet_invalid_port'
  | 'testnet_invalid_config'
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
}

export function testnetFile(dir: string): string {
  return join(resolve(dir), 'testnet.json');
}

function isPeer(x: unknown): x is TestnetPeer {
  const p = x as Partial<TestnetPeer> | null;
  return (
    typeof p === 'object' &&
    p !== null &&
    typeof p.index === 'number' &&
    (p.role === 'validator' || p.role === 'observer') &&
    typeof p.dir === 'string' &&
    typeof p.gatewayUrl === 'string' &&
    typeof p.p2pAddress === 'string' &&
    typeof p.peerId === 'string'
  );
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
  const m = json as Partial<TestnetManifest> | null;
  if (
    typeof m !== 'object' ||
    m === null ||
    typeof m.chainId !== 'string' ||
    !Array.isArray(m.peers) ||
    !m.peers.every((p, i) => isPeer(p) && p.index === i)
  )
    throw new TestnetError('testnet_not_found', `${path} is not a testnet description`);
  return { chainId: m.chainId, peers: m.peers };
}
