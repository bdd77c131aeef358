// Test helpers: key pairs, account ids and signed transactions built the way a client would.

import { encodeFrame } from '../../src/codec/frame.js';
import { Ed25519KeyPair } from '../../src/crypto/signer.js';
import { accountId } from '../../src/model/ids.js';
import type { Instruction } from '../../src/model/instructions.js';
import { SCHEMA } from '../../src/model/schema.js';
import {
  type SignedTransaction,
  SignedTransactionCodec,
  signTransaction,
  type TransactionPayload,
} from '../../src/model/transaction.js';

export interface TestAccount {
  key: Ed25519KeyPair;
  id: string;
}

export function newAccount(domain: string, seedByte?: number): TestAccount {
  const key =
    seedByte === undefined
      ? Ed25519KeyPair.generate()
      : Ed25519KeyPair.fromSeed(new Uint8Array(32).fill(seedByte));
  return { key, id: accountId(key.publicKeyText(), domain) };
}

export function buildTx(
  signer: TestAccount,
  instructions: Instruction[],
  opts: { chainId?: string; creationTimeMs?: number; ttlMs?: number; nonce?: number } = {},
): SignedTransaction {
  const payload: TransactionPayload = {
    chainId: opts.chainId ?? 'torana-test',
    authority: signer.id,
    creationTimeMs: opts.creationTimeMs ?? Date.now(),
    instructions,
    metadata: new Map(),
    ...(opts.ttlMs === undefined ? {} : { ttlMs: opts.ttlMs }),
    ...(opts.nonce === undefined ? {} : { nonce: opts.nonce }),
  };
  return signTransaction(payload, signer.key);
}

export function frameTx(tx: SignedTransaction): Uint8Array {
  return encodeFrame(SCHEMA, SignedTransactionCodec, tx);
}
