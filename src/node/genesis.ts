// The genesis file: the chain id, the validator set, and one transaction of instructions signed by the
// genesis key (architecture.md "Configuration"). Block 1 holds exactly that transaction.

import { readFile } from 'node:fs/promises';
import type { Json } from '../codec/codec.js';
import { type Validator, ValidatorCodec } from '../consensus/validator-set.js';
import { ed25519Verify } from '../crypto/ed25519.js';
import { parseAccountId } from '../model/ids.js';
import { parsePublicKey } from '../model/keys.js';
import { payloadHash, type SignedTransaction, SignedTransactionCodec } from '../model/transaction.js';

export interface Genesis {
  chainId: string;
  validators: Validator[];
  transaction: SignedTransaction;
}

export class GenesisError extends Error {
  override readonly name = 'GenesisError';
}

export function genesisToJson(g: Genesis): Json {
  return {
    chain_id: g.chainId,
    validators: g.validators.map((v) => ValidatorCodec.toJson(v)),
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
      validators: o.validators.map((v, i) => ValidatorCodec.fromJson(v, `genesis.validators[${i}]`)),
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
