// `torana testnet init` ("Configuration and commands"): a ready network in one directory, on loopback
// or on the hosts the operator names (testnet-plan.ts). Every peer gets a node directory holding only
// its own keys (node, consensus, and a client key whose account the genesis registers), client
// settings, config.toml and the genesis shared byte for byte. The genesis admin key and the bridge key
// go to a separate admin directory (`--admin-dir`, default `<dir>/admin`), never into a peer directory.
// `testnet.json` describes the whole network (testnet-manifest.ts).

import { mkdir, readdir } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { loadConfig, renderConfigToml } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { BlsKeyPair, blsProvePossession } from '../crypto/bls.js';
import { saveKeyFile } from '../crypto/keyfile.js';
import { publicKeyToText } from '../crypto/keys.js';
import { Ed25519KeyPair } from '../crypto/signer.js';
import { accountId } from '../model/ids.js';
import type { Instruction } from '../model/instructions.js';
import { writeFileAtomic } from '../util/atomic-file.js';
import { saveConsensusKey } from './consensus-key.js';
import { nodeFiles } from './files.js';
import { type Genesis, genesisToJson } from './genesis.js';
import { GENESIS_DOMAIN } from './init.js';
import { networkGenesis } from './network-genesis.js';
import {
  P2P_PORT_OFFSET,
  TESTNET_DEFAULT_BASE_PORT,
  TESTNET_PEERS_MAX,
  TestnetError,
  type TestnetManifest,
  type TestnetPeer,
  testnetFile,
  testnetToJson,
} from './testnet-manifest.js';
import { checkPlan, hostPort, type PeerPlan, planFromHosts } from './testnet-plan.js';

export interface TestnetOptions {
  dir: string;
  validators: number;
  observers?: number;
  /** Gateway of the k-th peer on a host on basePort + k, its p2p listener on basePort + 100 + k. */
  basePort?: number;
  /** One host per peer (validators first); default 127.0.0.1 for every peer. */
  hosts?: readonly string[];
  /** Every peer's role, host and ports (a manifest file); replaces validators, observers, hosts, basePort. */
  plan?: readonly PeerPlan[];
  /** Where the admin and bridge keys go; default `<dir>/admin`. Never inside a peer directory. */
  adminDir?: string;
  chainId?: string;
  /** Dotted config keys written into every peer's config.toml (e.g. `block.min_interval_ms`). */
  overrides?: Record<string, unknown>;
  /** Genesis creation time; defaults to now. */
  nowMs?: number;
}

interface PeerKeys {
  node: Ed25519KeyPair;
  consensus: BlsKeyPair;
  /** The key of the peer's own client account (`client.json`), registered by the genesis. */
  client: Ed25519KeyPair;
}

function checkSizes(validators: number, observers: number, basePort: number): void {
  const total = validators + observers;
  if (!Number.isInteger(validators) || validators < 1)
    throw new TestnetError(
      'testnet_invalid_size',
      `--validators must be a whole number >= 1, got ${validators}`,
    );
  if (!Number.isInteger(observers) || observers < 0)
    throw new TestnetError(
      'testnet_invalid_size',
      `--observers must be a whole number >= 0, got ${observers}`,
    );
  if (total > TESTNET_PEERS_MAX)
    throw new TestnetError(
      'testnet_invalid_size',
      `a testnet holds at most ${TESTNET_PEERS_MAX} peers, asked for ${validators} validators + ${observers} observers`,
    );
  if (!Number.isInteger(basePort) || basePort < 1 || basePort + P2P_PORT_OFFSET + total - 1 > 65_535)
    throw new TestnetError(
      'testnet_invalid_port',
      `--base-port must leave room for ${total} gateway ports and ${total} p2p ports at +${P2P_PORT_OFFSET} (1..${65_535 - P2P_PORT_OFFSET - total + 1}), got ${basePort}`,
    );
}

/** The admin directory: not inside the network's root unless `<dir>/admin`, and never a peer's. */
function adminDirOf(root: string, given: string | undefined): string {
  const dir = resolve(given ?? join(root, 'admin'));
  const rel = relative(root, dir);
  if (rel === '' || /^peer-\d+(?:[\\/]|$)/.test(rel) || rel === 'testnet.json')
    throw new TestnetError(
      'testnet_invalid_admin_dir',
      `--admin-dir ${dir} would be the network directory or inside a peer directory; the admin key must stay out of every peer directory`,
    );
  return dir;
}

async function refuseNonEmpty(dir: string): Promise<void> {
  const entries = await readdir(dir).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return [];
    throw e;
  });
  if (entries.length > 0)
    throw new TestnetError(
      'testnet_dir_not_empty',
      `${dir} exists and is not empty; choose a new directory (nothing was written)`,
    );
}

/** The manifest of a testnet about to be written: ports, addresses, roles, peer ids. */
function planPeers(root: string, keys: PeerKeys[], plan: readonly PeerPlan[]): TestnetPeer[] {
  return keys.map((k, index) => ({
    index,
    role: plan[index]!.role,
    dir: join(root, `peer-${index}`),
    gatewayUrl: `http://${hostPort(plan[index]!.host, plan[index]!.gatewayPort)}`,
    p2pAddress: hostPort(plan[index]!.host, plan[index]!.p2pPort),
    peerId: k.node.publicKeyText(),
  }));
}

/** `network.peers` of peer `i`: every other peer at `addressOf(j)` (its p2p address by default). */
export function peerEntriesFor(
  manifest: TestnetManifest,
  i: number,
  addressOf: (j: number) => string = (j) => manifest.peers[j]!.p2pAddress,
): string[] {
  return manifest.peers.filter((p) => p.index !== i).map((p) => `${p.peerId}@${addressOf(p.index)}`);
}

/** The configuration of one peer: its ports, listener, peer list and role over the shared overrides. */
export function peerConfig(
  manifest: TestnetManifest,
  i: number,
  overrides: Record<string, unknown> = {},
  listenHost?: string,
): Config {
  const p = manifest.peers[i]!;
  const url = new URL(p.gatewayUrl);
  const host = listenHost ?? url.hostname.replace(/^\[(.*)\]$/, '$1');
  const p2pPort = Number(p.p2pAddress.slice(p.p2pAddress.lastIndexOf(':') + 1));
  const loaded = loadConfig({
    overrides: {
      'telemetry.profile': 'full',
      ...overrides,
      'node.chain_id': manifest.chainId,
      'gateway.host': host,
      'gateway.port': Number(url.port),
      'network.listen': hostPort(host, p2pPort),
      'network.peers': peerEntriesFor(manifest, i),
      'network.role': p.role,
    },
  });
  if (!loaded.ok)
    throw new TestnetError('testnet_invalid_config', loaded.errors.map((e) => e.message).join('\n'));
  return loaded.config;
}

function genesisOf(
  manifest: TestnetManifest,
  keys: PeerKeys[],
  admin: Ed25519KeyPair,
  bridge: Ed25519KeyPair,
  config: Config,
  nowMs: number,
): Genesis {
  const validators = manifest.peers
    .filter((p) => p.role === 'validator')
    .map((v) => ({
      address: v.p2pAddress,
      entry: {
        peer: v.peerId,
        blsKey: publicKeyToText(keys[v.index]!.consensus.publicKey),
        pop: blsProvePossession(keys[v.index]!.consensus),
      },
    }));
  // Each peer's own client account (no permissions) follows the dev genesis.
  const empty = new Map();
  const extra = keys.map(
    (k): Instruction => ({
      kind: 'RegisterAccount',
      id: accountId(k.client.publicKeyText(), GENESIS_DOMAIN),
      metadata: empty,
    }),
  );
  return networkGenesis({ chainId: manifest.chainId, admin, bridge, validators, config, nowMs, extra });
}

/** Writes the testnet; refuses a directory that exists and is not empty (`testnet_dir_not_empty`). */
export async function initTestnet(opts: TestnetOptions): Promise<TestnetManifest> {
  let plan: readonly PeerPlan[];
  if (opts.plan !== undefined) plan = opts.plan;
  else {
    const observers = opts.observers ?? 0;
    const basePort = opts.basePort ?? TESTNET_DEFAULT_BASE_PORT;
    checkSizes(opts.validators, observers, basePort);
    plan = planFromHosts(opts.validators, observers, basePort, opts.hosts);
  }
  checkPlan(plan);
  const root = resolve(opts.dir);
  const adminDir = adminDirOf(root, opts.adminDir);
  await refuseNonEmpty(root);
  await refuseNonEmpty(adminDir);
  const keys: PeerKeys[] = plan.map(() => ({
    node: Ed25519KeyPair.generate(),
    consensus: BlsKeyPair.generate(),
    client: Ed25519KeyPair.generate(),
  }));
  // Validators numbered in roster order (validator-set.ts sorts by peer id text): peer-i is the genesis
  // roster's index i, so a `leader_index` the peers report is the testnet's peer-i.
  const validatorKeys = keys.slice(0, opts.validators).sort((a, b) => {
    const [x, y] = [a.node.publicKeyText(), b.node.publicKeyText()];
    return x < y ? -1 : x > y ? 1 : 0;
  });
  keys.splice(0, opts.validators, ...validatorKeys);
  const chainId = opts.chainId ?? 'torana-testnet';
  const manifest: TestnetManifest = { chainId, peers: planPeers(root, keys, plan), adminDir };
  // Checked before anything is written, so a bad override leaves no half-written directory.
  const configs = manifest.peers.map((p) =>
    peerConfig(manifest, p.index, opts.overrides, plan[p.index]!.listenHost),
  );
  const admin = Ed25519KeyPair.generate();
  const bridge = Ed25519KeyPair.generate();
  const genesis = genesisOf(manifest, keys, admin, bridge, configs[0]!, opts.nowMs ?? Date.now());
  const genesisText = `${JSON.stringify(genesisToJson(genesis), null, 2)}\n`;
  await mkdir(root, { recursive: true, mode: 0o700 });
  for (const p of manifest.peers) {
    await writePeerDir(p, keys[p.index]!, { genesisText, config: configs[p.index]! });
  }
  await writeAdminDir(adminDir, { admin, bridge, genesisText, url: manifest.peers[0]!.gatewayUrl });
  await writeFileAtomic(testnetFile(root), `${JSON.stringify(testnetToJson(manifest), null, 2)}\n`, 0o600);
  return manifest;
}

/** The admin directory: admin and bridge keys, the genesis, client settings signing as the admin. */
async function writeAdminDir(
  dir: string,
  a: { admin: Ed25519KeyPair; bridge: Ed25519KeyPair; genesisText: string; url: string },
): Promise<void> {
  const files = nodeFiles(dir);
  await mkdir(files.dir, { recursive: true, mode: 0o700 });
  await saveKeyFile(files.adminKey, a.admin);
  await saveKeyFile(files.bridgeKey, a.bridge);
  await writeFileAtomic(files.genesis, a.genesisText, 0o600);
  const account = accountId(a.admin.publicKeyText(), GENESIS_DOMAIN);
  const client = { url: a.url, account, key_file: 'admin.key.json' };
  await writeFileAtomic(files.client, `${JSON.stringify(client, null, 2)}\n`, 0o600);
}

async function writePeerDir(
  p: TestnetPeer,
  keys: PeerKeys,
  shared: { genesisText: string; config: Config },
): Promise<void> {
  const files = nodeFiles(p.dir);
  // 0700 and 0600 as `torana init`: the directory holds private keys (its own only).
  await mkdir(files.dir, { mode: 0o700 });
  await saveKeyFile(files.nodeKey, keys.node);
  await saveConsensusKey(files.consensusKey, keys.consensus);
  await saveKeyFile(files.clientKey, keys.client);
  await writeFileAtomic(files.genesis, shared.genesisText, 0o600);
  const account = accountId(keys.client.publicKeyText(), GENESIS_DOMAIN);
  const client = { url: p.gatewayUrl, account, key_file: 'client.key.json' };
  await writeFileAtomic(files.client, `${JSON.stringify(client, null, 2)}\n`, 0o600);
  // The config is written last: its presence marks a complete directory (as in init.ts).
  await writeFileAtomic(files.config, renderConfigToml(shared.config, { onlyNonDefault: true }), 0o600);
}
