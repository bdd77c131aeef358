// The genesis file: the chain id, the validator set, and one transaction of instructions signed by the
// genesis key (architecture.md "Configuration"). Block 1 holds exactly that transaction.

import { readFile } from 'node:fs/promises';
import type { Json } from '../codec/codec.js';
import { type Validator, ValidatorCodec } from '../consensus/validator-set.js';
import { BLS_SIGNATURE_BYTES } from '../crypto/bls.js';
import { ed25519Verify } from '../crypto/ed25519.js';
import { parseAccountId } from '../model/ids.js';
import { parsePublicKey } from '../model/keys.js';
import { payloadHash, type SignedTransaction, SignedTransactionCodec } from '../model/transaction.js';
import { fromHex } from '../util/hex.js';

export interface Genesis {
  chainId: string;
  validators: Validator[];
  transaction: SignedTransaction;
  /**
   * Peer id → BLS proof of possession (`blsProvePossession`, lower-case hex) from the optional `pop`
   * field of a validator entry (`torana testnet init` writes one for every validator). Only its form
   * is checked here; whether it verifies against the validator's BLS key is the membership's business.
   */
  proofsOfPossession?: ReadonlyMap<string, string>;
}

export class GenesisError extends Error {
  override readonly name = 'GenesisError';
}

export function genesisToJson(g: Genesis): Json {
  return {
    chain_id: g.chainId,
    validators: g.validators.map((v) => {
      const pop = g.proofsOfPossession?.get(v.peer);
      const json = ValidatorCodec.toJson(v) as { [k: string]: Json };
      return pop === undefined ? json : { ...json, pop };
    }),
    transaction: SignedTransactionCodec.toJson(g.transaction),
  };
}

/** One validator entry: the codec's fields plus an optional `pop` (hex of a BLS signature). */
function validatorFromJson(j: unknown, path: string, proofs: Map<string, string>): Validator {
  if (typeof j !== 'object' || j === null || !('pop' in j)) return ValidatorCodec.fromJson(j, path);
  const { pop, ...rest } = j as { pop: unknown };
  if (typeof pop !== 'string' || fromHex(pop, BLS_SIGNATURE_BYTES) === undefined)
    throw new GenesisError(`${path}.pop: expected ${BLS_SIGNATURE_BYTES * 2} hex digits`);
  const v = ValidatorCodec.fromJson(rest, path);
  proofs.set(v.peer, pop.toLowerCase());
  return v;
}

export function genesisFromJson(j: unknown, expectedChainId: string): Genesis {
  if (typeof j !== 'object' || j === null) throw new GenesisError('genesis: expected a JSON object');
  const o = j as Record<string, unknown>;
  let g: Genesis;
  try {
    if (typeof o.chain_id !== 'string') throw new GenesisError('genesis.chain_id: expected a string');
    if (!Array.isArray(o.validators) || o.validators.length === 0)
      throw new GenesisError('genesis.validators: expected a non-empty array');
    const proofs = new Map<string, string>();
    g = {
      chainId: o.chain_id,
      validators: o.validators.map((v, i) => validatorFromJson(v, `genesis.validators[${i}]`, proofs)),
      transaction: SignedTransactionCodec.fromJson(o.transaction, 'genesis.transaction'),
    };
    if (proofs.size > 0) g.proofsOfPossession = proofs;
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
  return g;
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
