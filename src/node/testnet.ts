// `torana testnet init` ("Configuration and commands"): a ready local network in one
// directory. Every peer gets a complete node directory like `torana init` writes (its own node and
// consensus keys, the shared admin and bridge keys, client settings, config.toml), one genesis shared
// byte for byte, and `testnet.json` describes the whole network (testnet-manifest.ts).

import { mkdir, readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { loadConfig, renderConfigToml } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { BlsKeyPair, blsProvePossession } from '../crypto/bls.js';
import { saveKeyFile } from '../crypto/keyfile.js';
import { publicKeyToText } from '../crypto/keys.js';
import { Ed25519KeyPair } from '../crypto/signer.js';
import { accountId } from '../model/ids.js';
import type { Instruction } from '../model/instructions.js';
import { signTransaction } from '../model/transaction.js';
import { writeFileAtomic } from '../util/atomic-file.js';
import { saveConsensusKey } from './consensus-key.js';
import { nodeFiles } from './files.js';
import { type Genesis, type GenesisValidator, genesisToJson } from './genesis.js';
import { devGenesisInstructions, GENESIS_DOMAIN } from './init.js';
import {
  P2P_PORT_OFFSET,
  TESTNET_DEFAULT_BASE_PORT,
  TESTNET_HOST,
  TESTNET_PEERS_MAX,
  TestnetError,
  type TestnetManifest,
  type TestnetPeer,
  testnetFile,
  testnetToJson,
} from './testnet-manifest.js';

export interface TestnetOptions {
  dir: string;
  validators: number;
  observers?: number;
  /** Gateway of peer i on basePort + i, its p2p listener on basePort + 100 + i. */
  basePort?: number;
  chainId?: string;
  /** Dotted config keys written into every peer's config.toml (e.g. `block.min_interval_ms`). */
  overrides?: Record<string, unknown>;
  /** Genesis creation time; defaults to now. */
  nowMs?: number;
}

interface PeerKeys {
  node: Ed25519KeyPair;
  consensus: BlsKeyPair;
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
function planPeers(root: string, keys: PeerKeys[], validators: number, basePort: number): TestnetPeer[] {
  return keys.map((k, index) => ({
    index,
    role: index < validators ? 'validator' : 'observer',
    dir: join(root, `peer-${index}`),
    gatewayUrl: `http://${TESTNET_HOST}:${basePort + index}`,
    p2pAddress: `${TESTNET_HOST}:${basePort + P2P_PORT_OFFSET + index}`,
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
): Config {
  const p = manifest.peers[i]!;
  const loaded = loadConfig({
    overrides: {
      'telemetry.profile': 'full',
      ...overrides,
      'node.chain_id': manifest.chainId,
      'gateway.host': TESTNET_HOST,
      'gateway.port': Number(new URL(p.gatewayUrl).port),
      'network.listen': p.p2pAddress,
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
  const adminId = accountId(admin.publicKeyText(), GENESIS_DOMAIN);
  const validators = manifest.peers.filter((p) => p.role === 'validator');
  const entries = validators.map(
    (v): GenesisValidator => ({
      peer: v.peerId,
      blsKey: publicKeyToText(keys[v.index]!.consensus.publicKey),
      pop: blsProvePossession(keys[v.index]!.consensus),
    }),
  );
  const base = devGenesisInstructions(
    adminId,
    entries[0]!,
    validators[0]!.p2pAddress,
    config,
    accountId(bridge.publicKeyText(), GENESIS_DOMAIN),
  );
  // The dev genesis of `torana init`, with every validator registered (BLS key and proof of possession,
  // as genesis.ts requires) where it registers its one peer.
  const instructions: Instruction[] = base.flatMap((ins) =>
    ins.kind === 'RegisterPeer'
      ? validators.map(
          (v, i): Instruction => ({ kind: 'RegisterPeer', address: v.p2pAddress, ...entries[i]! }),
        )
      : [ins],
  );
  const payload = {
    chainId: manifest.chainId,
    authority: adminId,
    creationTimeMs: nowMs,
    instructions,
    metadata: new Map(),
  };
  return {
    chainId: manifest.chainId,
    validators: entries,
    transaction: signTransaction(payload, admin),
  };
}

/** Writes the testnet; refuses a directory that exists and is not empty (`testnet_dir_not_empty`). */
export async function initTestnet(opts: TestnetOptions): Promise<TestnetManifest> {
  const observers = opts.observers ?? 0;
  const basePort = opts.basePort ?? TESTNET_DEFAULT_BASE_PORT;
  checkSizes(opts.validators, observers, basePort);
  const root = resolve(opts.dir);
  await refuseNonEmpty(root);
  const keys: PeerKeys[] = Array.from({ length: opts.validators + observers }, () => ({
    node: Ed25519KeyPair.generate(),
    consensus: BlsKeyPair.generate(),
  }));
  // Validators numbered in roster order (validator-set.ts sorts by peer id text): peer-i is the genesis
  // roster's index i, so a `leader_index` the peers report is the testnet's peer-i.
  const validatorKeys = keys.slice(0, opts.validators).sort((a, b) => {
    const [x, y] = [a.node.publicKeyText(), b.node.publicKeyText()];
    return x < y ? -1 : x > y ? 1 : 0;
  });
  keys.splice(0, opts.validators, ...validatorKeys);
  const chainId = opts.chainId ?? 'torana-testnet';
  const manifest: TestnetManifest = {
    chainId,
    peers: planPeers(root, keys, opts.validators, basePort),
  };
  // Checked before anything is written, so a bad override leaves no half-written directory.
  const configs = manifest.peers.map((p) => peerConfig(manifest, p.index, opts.overrides));
  const admin = Ed25519KeyPair.generate();
  const bridge = Ed25519KeyPair.generate();
  const genesis = genesisOf(manifest, keys, admin, bridge, configs[0]!, opts.nowMs ?? Date.now());
  const genesisText = `${JSON.stringify(genesisToJson(genesis), null, 2)}\n`;
  await mkdir(root, { recursive: true, mode: 0o700 });
  for (const p of manifest.peers) {
    await writePeerDir(p, keys[p.index]!, { admin, bridge, genesisText, config: configs[p.index]! });
  }
  await writeFileAtomic(testnetFile(root), `${JSON.stringify(testnetToJson(manifest), null, 2)}\n`, 0o600);
  return manifest;
}

async function writePeerDir(
  p: TestnetPeer,
  keys: PeerKeys,
  shared: { admin: Ed25519KeyPair; bridge: Ed25519KeyPair; genesisText: string; config: Config },
): Promise<void> {
  const files = nodeFiles(p.dir);
  // 0700 and 0600 as `torana init`: the directory holds private keys.
  await mkdir(files.dir, { mode: 0o700 });
  await saveKeyFile(files.nodeKey, keys.node);
  await saveConsensusKey(files.consensusKey, keys.consensus);
  await saveKeyFile(files.adminKey, shared.admin);
  await saveKeyFile(files.bridgeKey, shared.bridge);
  await writeFileAtomic(files.genesis, shared.genesisText, 0o600);
  const account = accountId(shared.admin.publicKeyText(), GENESIS_DOMAIN);
  const client = { url: p.gatewayUrl, account, key_file: 'admin.key.json' };
  await writeFileAtomic(files.client, `${JSON.stringify(client, null, 2)}\n`, 0o600);
  // The config is written last: its presence marks a complete directory (as in init.ts).
  await writeFileAtomic(files.config, renderConfigToml(shared.config, { onlyNonDefault: true }), 0o600);
}
