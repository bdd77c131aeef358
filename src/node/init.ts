// `torana init`: writes a working local setup into the node directory — configuration, node and
// consensus keys, the admin account's key, a dev genesis and the client settings file (README "Quick start").

import { access, mkdir } from 'node:fs/promises';
import { basename } from 'node:path';
import { loadConfig, renderConfigToml } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { localConfigOverrides } from '../config/sections.js';
import { BlsKeyPair, blsProvePossession } from '../crypto/bls.js';
import { saveKeyFile } from '../crypto/keyfile.js';
import { publicKeyToText } from '../crypto/keys.js';
import { Ed25519KeyPair } from '../crypto/signer.js';
import { accountId } from '../model/ids.js';
import type { Instruction } from '../model/instructions.js';
import { numeric } from '../model/numeric.js';
import { PERMISSIONS } from '../model/permissions.js';
import { signTransaction } from '../model/transaction.js';
import { writeFileAtomic } from '../util/atomic-file.js';
import { saveConsensusKey } from './consensus-key.js';
import { nodeFiles } from './files.js';
import { type Genesis, type GenesisValidator, genesisToJson } from './genesis.js';
import { devZkInstructions } from './zk-dev-genesis.js';

export const GENESIS_DOMAIN = 'system';
/** The dev chain's native asset (what metered usage is billed in: `native_asset`), minted to the admin. */
export const NATIVE_ASSET = `gas#${GENESIS_DOMAIN}`;
export const NATIVE_ASSET_SCALE = 6;
export const NATIVE_ASSET_GENESIS_SUPPLY = '1000000';

export interface InitOptions {
  dir: string;
  /** Dotted config overrides written into config.toml (e.g. `gateway.port`). */
  overrides?: Record<string, unknown>;
  /** Genesis creation time; defaults to now. */
  nowMs?: number;
}

/** A node directory that holds a node's files (keys, a genesis) but no config.toml: init would replace them. */
export class NodeDirIncompleteError extends Error {
  override readonly name = 'NodeDirIncompleteError';
  readonly code = 'node_dir_incomplete';
  constructor(
    readonly dir: string,
    readonly found: readonly string[],
  ) {
    super(
      `${dir} holds ${found.join(', ')} but no config.toml: a new local setup would replace them. ` +
        'A peer of a network: torana genesis adopt <genesis.json> --hash <hash> --dir <dir> writes its ' +
        'config.toml (docs/operations.md); a new local chain: an empty directory',
    );
  }
}

export interface InitReport {
  created: boolean;
  dir: string;
  adminAccount: string;
  url: string;
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/** Registers the native asset, mints the genesis supply to `admin` and names it in `native_asset`. */
export function nativeAssetInstructions(admin: string): Instruction[] {
  return [
    {
      kind: 'RegisterAssetDefinition',
      id: NATIVE_ASSET,
      scale: NATIVE_ASSET_SCALE,
      mintable: { kind: 'Infinitely' },
      metadata: new Map(),
    },
    { kind: 'MintAsset', asset: `${NATIVE_ASSET}#${admin}`, amount: numeric(NATIVE_ASSET_GENESIS_SUPPLY) },
    { kind: 'SetParameter', parameter: { kind: 'Custom', id: 'native_asset', payload: NATIVE_ASSET } },
  ];
}

/**
 * The dev genesis: a `system` domain, an admin account holding `Admin`, the bridge account (`bridgeKey`)
 * marked `TransferDelegate` (it may debit only accounts that grant it `CanTransferFrom`), this peer, the
 * chain parameters, the native asset `gas#system` (scale 6, 1,000,000 minted to the admin, named by the
 * custom parameter `native_asset`) that metered usage is billed in, and the zero-knowledge setup
 * (zk-dev-genesis.ts). The genesis validator is registered here, by the genesis transaction, so its peer
 * row (key lifecycle) is part of block 1's state on every peer (genesis.ts checks the two agree).
 */
export function devGenesisInstructions(
  admin: string,
  validator: GenesisValidator,
  address: string,
  config: Config,
  bridge?: string,
): Instruction[] {
  const empty = new Map();
  const delegate = { name: PERMISSIONS.TransferDelegate, payload: null };
  return [
    { kind: 'RegisterDomain', id: GENESIS_DOMAIN, metadata: empty },
    { kind: 'RegisterAccount', id: admin, metadata: empty },
    { kind: 'GrantPermission', account: admin, permission: { name: PERMISSIONS.Admin, payload: null } },
    ...(bridge === undefined
      ? []
      : ([
          { kind: 'RegisterAccount', id: bridge, metadata: empty },
          { kind: 'GrantPermission', account: bridge, permission: delegate },
        ] as const)),
    { kind: 'RegisterPeer', peer: validator.peer, address, blsKey: validator.blsKey, pop: validator.pop },
    {
      kind: 'SetParameter',
      parameter: { kind: 'BlockMaxTransactions', value: config.block.maxTransactions },
    },
    {
      kind: 'SetParameter',
      parameter: { kind: 'MaxClockDriftMs', value: config.transaction.maxClockDriftMs },
    },
    {
      kind: 'SetParameter',
      parameter: { kind: 'TransactionMaxInstructions', value: config.transaction.instructionsMax },
    },
    { kind: 'SetParameter', parameter: { kind: 'TransactionMaxBytes', value: config.transaction.bytesMax } },
    ...nativeAssetInstructions(admin),
    ...devZkInstructions(GENESIS_DOMAIN, admin),
  ];
}

export async function initNodeDir(opts: InitOptions): Promise<InitReport> {
  const files = nodeFiles(opts.dir);
  // The local (development) setup: every route class (the `full` profile), and the modules' local values (their sections'
  // `local`, e.g. receivers on this machine a node may deliver to).
  const loaded = loadConfig({
    overrides: {
      'telemetry.profile': 'full',
      ...localConfigOverrides(),
      ...opts.overrides,
    },
  });
  if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.message).join('\n'));
  const config = loaded.config;
  const url = `http://${config.gateway.host}:${config.gateway.port}`;
  if (await exists(files.config)) {
    const admin = await exists(files.client);
    return { created: false, dir: files.dir, adminAccount: admin ? '(see client.json)' : '', url };
  }
  // A directory set up by hand or by the genesis ceremony (its keys, the network's genesis) is never
  // overwritten with a new chain's files.
  const ours = [
    files.genesis,
    files.nodeKey,
    files.consensusKey,
    files.adminKey,
    files.bridgeKey,
    files.client,
  ];
  const found: string[] = [];
  for (const f of ours) if (await exists(f)) found.push(basename(f));
  if (found.length > 0) throw new NodeDirIncompleteError(files.dir, found);
  // 0700 and 0600 below whatever the umask: the directory holds private keys.
  await mkdir(files.dir, { recursive: true, mode: 0o700 });
  const nodeKey = Ed25519KeyPair.generate();
  const consensusKey = BlsKeyPair.generate();
  const adminKey = Ed25519KeyPair.generate();
  const admin = accountId(adminKey.publicKeyText(), GENESIS_DOMAIN);
  const bridgeKey = Ed25519KeyPair.generate();
  const bridge = accountId(bridgeKey.publicKeyText(), GENESIS_DOMAIN);
  const validator: GenesisValidator = {
    peer: nodeKey.publicKeyText(),
    blsKey: publicKeyToText(consensusKey.publicKey),
    pop: blsProvePossession(consensusKey),
  };
  const instructions = devGenesisInstructions(
    admin,
    validator,
    `${config.gateway.host}:${config.gateway.port}`,
    config,
    bridge,
  );
  const payload = {
    chainId: config.node.chainId,
    authority: admin,
    creationTimeMs: opts.nowMs ?? Date.now(),
    instructions,
    metadata: new Map(),
  };
  const genesis: Genesis = {
    chainId: config.node.chainId,
    validators: [validator],
    transaction: signTransaction(payload, adminKey),
  };
  await saveKeyFile(files.nodeKey, nodeKey);
  await saveConsensusKey(files.consensusKey, consensusKey);
  await saveKeyFile(files.adminKey, adminKey);
  await saveKeyFile(files.bridgeKey, bridgeKey);
  await writeFileAtomic(files.genesis, `${JSON.stringify(genesisToJson(genesis), null, 2)}\n`, 0o600);
  await writeFileAtomic(
    files.client,
    `${JSON.stringify({ url, account: admin, key_file: 'admin.key.json' }, null, 2)}\n`,
    0o600,
  );
  // The config is written last: its presence marks a complete directory.
  await writeFileAtomic(files.config, renderConfigToml(config, { onlyNonDefault: true }), 0o600);
  return { created: true, dir: files.dir, adminAccount: admin, url };
}
