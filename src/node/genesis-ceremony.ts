// The genesis ceremony (docs/operations.md "Genesis ceremony"): validators whose keys never leave their
// own machines build one genesis together.
//   entry   (each operator)  makes the node and consensus keys if absent, writes a signed entry
//                            (genesis-entry.ts: public material only);
//   collect (the coordinator) checks every entry, refuses duplicates, and writes genesis.json signed
//                            by the genesis admin key, which stays in the coordinator's admin directory;
//   verify / adopt (each operator) checks the genesis received against the hash given out of band,
//                            and installs it in the node directory with a configuration naming the
//                            other validators as its bootstrap peers.

import { access, mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadConfig, renderConfigToml } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { BlsKeyPair, blsProvePossession } from '../crypto/bls.js';
import { hash, hashToHex } from '../crypto/hash.js';
import { loadKeyFile, saveKeyFile } from '../crypto/keyfile.js';
import { publicKeyToText } from '../crypto/keys.js';
import { Ed25519KeyPair } from '../crypto/signer.js';
import { writeFileAtomic } from '../util/atomic-file.js';
import { loadConsensusKey, saveConsensusKey } from './consensus-key.js';
import { nodeFiles } from './files.js';
import { type Genesis, GenesisError, genesisFromJson, genesisToJson } from './genesis.js';
import { CeremonyError, type GenesisEntry, signEntry } from './genesis-entry.js';
import { networkGenesis } from './network-genesis.js';

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/** The node and consensus keys of `dir`, made (0600, in a 0700 directory) when absent. */
export async function ensureNodeKeys(
  dir: string,
): Promise<{ node: Ed25519KeyPair; consensus: BlsKeyPair; created: boolean }> {
  const files = nodeFiles(dir);
  await mkdir(files.dir, { recursive: true, mode: 0o700 });
  const hasNode = await exists(files.nodeKey);
  const hasConsensus = await exists(files.consensusKey);
  const node = hasNode ? await loadKeyFile(files.nodeKey) : Ed25519KeyPair.generate();
  const consensus = hasConsensus ? await loadConsensusKey(files.consensusKey) : BlsKeyPair.generate();
  if (!hasNode) await saveKeyFile(files.nodeKey, node);
  if (!hasConsensus) await saveConsensusKey(files.consensusKey, consensus);
  return { node, consensus, created: !hasNode || !hasConsensus };
}

/** `torana genesis entry`: this node's signed entry for `chainId`, reachable at `address`. */
export async function makeEntry(dir: string, chainId: string, address: string): Promise<GenesisEntry> {
  const { node, consensus } = await ensureNodeKeys(dir);
  return signEntry(node, {
    chainId,
    address,
    validator: {
      peer: node.publicKeyText(),
      blsKey: publicKeyToText(consensus.publicKey),
      pop: blsProvePossession(consensus),
    },
  });
}

/** Refuses entries for another chain and a peer id, BLS key or address given twice. */
export function checkEntries(chainId: string, entries: readonly GenesisEntry[]): void {
  if (entries.length === 0) throw new CeremonyError('genesis_entry_invalid', 'no entries given');
  const seen = new Map<string, number>();
  entries.forEach((e, i) => {
    if (e.chainId !== chainId)
      throw new CeremonyError(
        'genesis_entry_invalid',
        `entry ${i} is for chain "${e.chainId}", not "${chainId}"`,
      );
    for (const [what, value] of [
      ['peer id', e.validator.peer],
      ['BLS key', e.validator.blsKey],
      ['address', e.address.toLowerCase()],
    ] as const) {
      const key = `${what} ${value}`;
      const first = seen.get(key);
      if (first !== undefined)
        throw new CeremonyError(
          'genesis_entry_duplicate',
          `entries ${first} and ${i} give the same ${what} (${value})`,
        );
      seen.set(key, i);
    }
  });
}

/** Chain parameters from dotted configuration keys (`block.max_transactions`, `transaction.*`). */
export function paramsConfig(chainId: string, params: Record<string, unknown>): Config {
  const loaded = loadConfig({ overrides: { ...params, 'node.chain_id': chainId } });
  if (!loaded.ok) throw new CeremonyError('genesis_invalid', loaded.errors.map((e) => e.message).join('\n'));
  return loaded.config;
}

/**
 * `torana genesis collect`: the genesis of the given (already checked) entries, signed by the admin
 * key of `adminDir` (made there, with the bridge key, when absent). Validators in entry order.
 */
export async function collectGenesis(a: {
  chainId: string;
  entries: readonly GenesisEntry[];
  adminDir: string;
  params?: Record<string, unknown>;
  nowMs: number;
}): Promise<{ genesis: Genesis; text: string; hash: string }> {
  checkEntries(a.chainId, a.entries);
  const config = paramsConfig(a.chainId, a.params ?? {});
  const files = nodeFiles(a.adminDir);
  await mkdir(files.dir, { recursive: true, mode: 0o700 });
  const keyOf = async (path: string) => {
    if (await exists(path)) return loadKeyFile(path);
    const k = Ed25519KeyPair.generate();
    await saveKeyFile(path, k);
    return k;
  };
  const genesis = networkGenesis({
    chainId: a.chainId,
    admin: await keyOf(files.adminKey),
    bridge: await keyOf(files.bridgeKey),
    validators: a.entries.map((e) => ({ entry: e.validator, address: e.address })),
    config,
    nowMs: a.nowMs,
  });
  const text = `${JSON.stringify(genesisToJson(genesis), null, 2)}\n`;
  return { genesis, text, hash: genesisHash(text) };
}

/** The hash operators compare: BLAKE2b-256 of the genesis file's bytes, hex. */
export function genesisHash(bytes: string | Uint8Array): string {
  return hashToHex(hash(typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes));
}

/** The p2p address each validator is registered at by the genesis transaction. */
export function registeredAddresses(g: Genesis): Map<string, string> {
  const out = new Map<string, string>();
  for (const ins of g.transaction.payload.instructions)
    if (ins.kind === 'RegisterPeer') out.set(ins.peer, ins.address);
  return out;
}

/**
 * `torana genesis verify`: the file's hash must be `expectedHash` (`genesis_hash_mismatch`), and the
 * genesis must load (signature, proofs of possession, registrations: `genesis_invalid`).
 */
export async function verifyGenesisFile(
  path: string,
  expectedHash: string,
): Promise<{ genesis: Genesis; bytes: Buffer; hash: string }> {
  const bytes = await readFile(path).catch((e: Error) => {
    throw new CeremonyError('genesis_invalid', `cannot read ${path}: ${e.message}`);
  });
  const h = genesisHash(bytes);
  if (h !== expectedHash.trim().toLowerCase())
    throw new CeremonyError(
      'genesis_hash_mismatch',
      `${path} has hash ${h}, not the ${expectedHash} you were given: do not use it`,
    );
  try {
    const json = JSON.parse(bytes.toString('utf8')) as { chain_id?: unknown };
    const genesis = genesisFromJson(json, String(json.chain_id));
    return { genesis, bytes, hash: h };
  } catch (e) {
    const why = e instanceof GenesisError || e instanceof SyntaxError ? e.message : String(e);
    throw new CeremonyError('genesis_invalid', `${path}: ${why}`);
  }
}

/**
 * `torana genesis adopt`: verifies the genesis and installs it as `<dir>/genesis.json`. Refuses a node
 * directory that already holds blocks (`genesis_node_has_chain`) or whose configuration names another
 * chain (`genesis_chain_mismatch`). Without a config.toml, writes one: the genesis chain id, the role
 * (validator when the genesis lists this node key), listening on its registered address (or `listen`),
 * and every other validator as a bootstrap peer at its registered address.
 */
export async function adoptGenesis(a: {
  dir: string;
  path: string;
  hash: string;
  listen?: string;
}): Promise<{ genesis: Genesis; hash: string; role: 'validator' | 'observer'; wroteConfig: boolean }> {
  const { genesis, bytes, hash: h } = await verifyGenesisFile(a.path, a.hash);
  const files = nodeFiles(a.dir);
  const data = await readdir(files.data).catch(() => []);
  if (data.length > 0)
    throw new CeremonyError(
      'genesis_node_has_chain',
      `${files.data} already holds a chain; a genesis is adopted before the node first starts`,
    );
  const { node } = await ensureNodeKeys(a.dir);
  const self = node.publicKeyText();
  const isValidator = genesis.validators.some((v) => v.peer === self);
  const addresses = registeredAddresses(genesis);
  let config: Config;
  const wroteConfig = !(await exists(files.config));
  if (!wroteConfig) {
    const text = await readFile(files.config, 'utf8');
    const loaded = loadConfig({ file: text, filePath: files.config, env: {}, overrides: {} });
    if (!loaded.ok)
      throw new CeremonyError('genesis_invalid', loaded.errors.map((e) => e.message).join('\n'));
    config = loaded.config;
    if (config.node.chainId !== genesis.chainId)
      throw new CeremonyError(
        'genesis_chain_mismatch',
        `${files.config} names chain "${config.node.chainId}", the genesis "${genesis.chainId}"`,
      );
  } else {
    const listen = a.listen ?? (isValidator ? (addresses.get(self) ?? '') : '');
    const peers = genesis.validators
      .filter((v) => v.peer !== self)
      .map((v) => `${v.peer}@${addresses.get(v.peer)}`);
    const loaded = loadConfig({
      overrides: {
        'node.chain_id': genesis.chainId,
        'network.listen': listen,
        'network.peers': peers,
        'network.role': isValidator ? 'validator' : 'observer',
      },
    });
    if (!loaded.ok)
      throw new CeremonyError('genesis_invalid', loaded.errors.map((e) => e.message).join('\n'));
    config = loaded.config;
  }
  await writeFileAtomic(join(files.dir, config.node.genesisFile), bytes, 0o600);
  // The config is written last: its presence marks a complete directory (as in init.ts).
  if (wroteConfig)
    await writeFileAtomic(files.config, renderConfigToml(config, { onlyNonDefault: true }), 0o600);
  return { genesis, hash: h, role: isValidator ? 'validator' : 'observer', wroteConfig };
}
