// A signed validator entry of the genesis ceremony (docs/operations.md "Genesis ceremony"): what an
// operator sends the coordinator, public material only — chain id, peer id (node public key), p2p
// address, BLS consensus public key with its proof of possession — signed by the node key, so the
// coordinator can check that whoever holds the node key asks for this address and consensus key.

import { blsVerifyPossession } from '../crypto/bls.js';
import { ed25519Verify } from '../crypto/ed25519.js';
import { hash } from '../crypto/hash.js';
import type { Ed25519KeyPair } from '../crypto/signer.js';
import { parsePublicKey } from '../model/keys.js';
import { parseHostPort } from '../p2p/address.js';
import { fromHex, toHex } from '../util/hex.js';
import { type GenesisValidator, GenesisValidatorCodec } from './genesis.js';

export const GENESIS_ENTRY_FORMAT = 'torana-genesis-entry/1';

export type CeremonyErrorCode =
  | 'genesis_entry_invalid'
  | 'genesis_entry_duplicate'
  | 'genesis_invalid'
  | 'genesis_hash_mismatch'
  | 'genesis_node_has_chain'
  | 'genesis_chain_mismatch'
  | 'genesis_import_invalid'
  | 'genesis_import_not_empty';

/** An error of the genesis ceremony commands, with a stable code (src/cli/README.md "genesis"). */
export class CeremonyError extends Error {
  override readonly name = 'CeremonyError';
  constructor(
    readonly code: CeremonyErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface GenesisEntry {
  chainId: string;
  /** `host:port` other peers dial it at (registered on chain by the genesis). */
  address: string;
  validator: GenesisValidator;
  /** Ed25519 signature of `entryMessage` by the key `validator.peer` names. */
  signature: Uint8Array;
}

/** The bytes the node key signs: a hash over the format tag and every field, one per line. */
export function entryMessage(e: Omit<GenesisEntry, 'signature'>): Uint8Array {
  const v = e.validator;
  const text = [GENESIS_ENTRY_FORMAT, e.chainId, v.peer, e.address, v.blsKey, toHex(v.pop)].join('\n');
  return hash(new TextEncoder().encode(text));
}

export function signEntry(nodeKey: Ed25519KeyPair, e: Omit<GenesisEntry, 'signature'>): GenesisEntry {
  return { ...e, signature: nodeKey.sign(entryMessage(e)) };
}

export function entryToJson(e: GenesisEntry): Record<string, unknown> {
  return {
    format: GENESIS_ENTRY_FORMAT,
    chain_id: e.chainId,
    address: e.address,
    ...(GenesisValidatorCodec.toJson(e.validator) as Record<string, unknown>),
    signature: toHex(e.signature),
  };
}

function invalid(where: string, why: string): CeremonyError {
  return new CeremonyError('genesis_entry_invalid', `${where}: ${why}`);
}

/**
 * Reads an entry and checks it: the format, a `host:port` address, a BLS key whose proof of
 * possession verifies, and the node key's signature over every field. Throws `genesis_entry_invalid`.
 */
export function entryFromJson(j: unknown, where = 'entry'): GenesisEntry {
  const o = (typeof j === 'object' && j !== null ? j : {}) as Record<string, unknown>;
  if (o.format !== GENESIS_ENTRY_FORMAT) throw invalid(where, `format must be "${GENESIS_ENTRY_FORMAT}"`);
  const { chain_id, address, signature, peer, bls_key, pop } = o;
  if (typeof chain_id !== 'string' || chain_id === '') throw invalid(where, 'chain_id must be a string');
  if (typeof address !== 'string' || parseHostPort(address) === undefined)
    throw invalid(where, 'address must be host:port');
  if (typeof signature !== 'string' || !/^[0-9a-fA-F]{128}$/.test(signature))
    throw invalid(where, 'signature must be 64 bytes of hex');
  const unknown = Object.keys(o).filter(
    (k) => !['format', 'chain_id', 'address', 'signature', 'peer', 'bls_key', 'pop'].includes(k),
  );
  if (unknown.length > 0) throw invalid(where, `unknown field ${unknown[0]}`);
  let validator: GenesisValidator;
  try {
    validator = GenesisValidatorCodec.fromJson({ peer, bls_key, pop }, where);
  } catch (e) {
    throw invalid(where, (e as Error).message);
  }
  const bls = parsePublicKey(validator.blsKey);
  if (bls?.algorithm !== 'bls12_381' || !blsVerifyPossession(bls.bytes, validator.pop))
    throw invalid(where, `the proof of possession does not verify against bls_key (peer ${validator.peer})`);
  const node = parsePublicKey(validator.peer);
  const entry: GenesisEntry = { chainId: chain_id, address, validator, signature: fromHex(signature)! };
  if (node?.algorithm !== 'ed25519' || !ed25519Verify(node.bytes, entryMessage(entry), entry.signature))
    throw invalid(where, `the signature does not verify against the node key ${validator.peer}`);
  return entry;
}
