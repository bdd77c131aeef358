// The genesis file: the chain id, the validator set, and one transaction of instructions signed by the
// genesis key (docs/design/architecture.md). Block 1 holds exactly that transaction.
//
// Membership (docs/data-model.md "Peers"): each validator entry carries its BLS key and a proof of
// possession, checked on load. The genesis transaction must register exactly these validators with
// RegisterPeer (same peer, key and proof): executing block 1 then writes their peer rows, so every peer
// that replays block 1 has the same state root, and the node never writes state outside a block.

import { readFile } from 'node:fs/promises';
import type { Infer, Json } from '../codec/codec.js';
import { struct } from '../codec/compound.js';
import type { Validator } from '../consensus/validator-set.js';
import { blsVerifyPossession } from '../crypto/bls.js';
import { ed25519Verify } from '../crypto/ed25519.js';
import { PeerId, parseAccountId } from '../model/ids.js';
import { BlsPopBytes, PublicKeyText, parsePublicKey } from '../model/keys.js';
import { payloadHash, type SignedTransaction, SignedTransactionCodec } from '../model/transaction.js';
import { bytesEqual } from '../util/hex.js';

/** A genesis validator: peer id, BLS consensus key, proof of possession (JSON: hex `pop`). */
export const GenesisValidatorCodec = struct('GenesisValidator', {
  peer: PeerId,
  blsKey: PublicKeyText,
  pop: BlsPopBytes,
});
export type GenesisValidator = Infer<typeof GenesisValidatorCodec>;

export interface Genesis {
  chainId: string;
  validators: GenesisValidator[];
  transaction: SignedTransaction;
}

/** The genesis roster without the proofs (what ValidatorSet and certificates use). */
export function genesisRoster(g: Genesis): Validator[] {
  return g.validators.map(({ peer, blsKey }) => ({ peer, blsKey }));
}

export class GenesisError extends Error {
  override readonly name = 'GenesisError';
}

export function genesisToJson(g: Genesis): Json {
  return {
    chain_id: g.chainId,
    validators: g.validators.map((v) => GenesisValidatorCodec.toJson(v)),
    transaction: SignedTransactionCodec.toJson(g.transaction),
  };
}

export function genesisFromJson(j: unknown, expectedChainId: string): Genesis {
  if (typeof j !== 'object' || j === null) throw new GenesisError('genesis: expected a JSON object');
  const o = j as Record<string, unknown>;
  let g: Genesis;
  try {
    if (typeof o.chain_id !== 'string') throw new GenesisError('genesis.chain_id: expected a string');
    if (!Array.isArray(o.validators) || o.validators.length === 0)
      throw new GenesisError('genesis.validators: expected a non-empty array');
    g = {
      chainId: o.chain_id,
      validators: o.validators.map((v, i) => GenesisValidatorCodec.fromJson(v, `genesis.validators[${i}]`)),
      transaction: SignedTransactionCodec.fromJson(o.transaction, 'genesis.transaction'),
    };
  } catch (e) {
    throw e instanceof GenesisError ? e : new GenesisError(`${(e as Error).message}`);
  }
  if (g.chainId !== expectedChainId)
    throw new GenesisError(
      `genesis is for chain "${g.chainId}", the configuration says "${expectedChainId}"`,
    );
  if (g.transaction.payload.chainId !== g.chainId)
    throw new GenesisError('genesis transaction names another chain');
  const authority = parseAccountId(g.transaction.payload.authority)!;
  const key = parsePublicKey(authority.signatory)!;
  if (
    key.algorithm !== 'ed25519' ||
    !ed25519Verify(key.bytes, payloadHash(g.transaction.payload), g.transaction.signature)
  ) {
    throw new GenesisError('genesis transaction signature does not verify against its authority');
  }
  checkValidators(g);
  return g;
}

/** Every validator's proof of possession verifies, and the genesis transaction registers exactly them. */
function checkValidators(g: Genesis): void {
  const seen = new Set<string>();
  g.validators.forEach((v, i) => {
    const key = parsePublicKey(v.blsKey);
    if (key?.algorithm !== 'bls12_381')
      throw new GenesisError(`genesis.validators[${i}].bls_key: expected a BLS12-381 public key`);
    if (!blsVerifyPossession(key.bytes, v.pop))
      throw new GenesisError(
        `genesis.validators[${i}].pop: does not verify against bls_key (peer ${v.peer})`,
      );
    if (seen.has(v.peer)) throw new GenesisError(`genesis.validators[${i}]: peer ${v.peer} listed twice`);
    seen.add(v.peer);
  });
  const registered = new Map<string, { blsKey: string; pop: Uint8Array }>();
  for (const ins of g.transaction.payload.instructions)
    if (ins.kind === 'RegisterPeer') registered.set(ins.peer, ins);
  g.validators.forEach((v, i) => {
    const r = registered.get(v.peer);
    if (r === undefined || r.blsKey !== v.blsKey || !bytesEqual(r.pop, v.pop))
      throw new GenesisError(
        `genesis.validators[${i}]: the genesis transaction must register peer ${v.peer} with the same bls_key and pop`,
      );
  });
  if (registered.size !== g.validators.length)
    throw new GenesisError('genesis transaction registers peers that genesis.validators does not list');
}

export async function loadGenesis(path: string, expectedChainId: string): Promise<Genesis> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new GenesisError(`cannot read genesis file ${path}: ${(e as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new GenesisError(`genesis file ${path} is not JSON: ${(e as Error).message}`);
  }
  return genesisFromJson(json, expectedChainId);
}
