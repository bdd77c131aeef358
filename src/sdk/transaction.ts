// Building, signing and encoding transactions (docs/data-model.md "Transactions and blocks").

import type { Json } from '../codec/codec.js';
import { encodeFrame } from '../codec/frame.js';
import type { Signer } from '../crypto/signer.js';
import type { Instruction } from '../model/instructions.js';
import { SCHEMA } from '../model/schema.js';
import {
  type SignedTransaction,
  SignedTransactionCodec,
  signTransaction,
  type TransactionPayload,
  transactionHash,
} from '../model/transaction.js';
import { toHex } from '../util/hex.js';

export interface BuiltTransaction {
  readonly signed: SignedTransaction;
  /** The framed codec bytes to POST to /transaction. */
  readonly bytes: Uint8Array;
  /** Lower-case hex transaction hash (what the node reports). */
  readonly hash: string;
}

export class TransactionBuilder {
  private readonly list: Instruction[] = [];
  private readonly meta = new Map<string, Json>();
  private ttl: number | undefined;
  private nonceValue: number | undefined;
  private createdAt: number | undefined;

  constructor(
    private readonly chainId: string,
    private readonly authority: string,
  ) {}

  add(...instructions: Instruction[]): this {
    this.list.push(...instructions);
    return this;
  }

  /** Time to live in milliseconds from the creation time; the node refuses it once passed. */
  ttlMs(ms: number): this {
    this.ttl = ms;
    return this;
  }

  /** A nonce makes otherwise identical transactions distinct (0..2^32-1). */
  nonce(n: number): this {
    this.nonceValue = n;
    return this;
  }

  metadata(key: string, value: Json): this {
    this.meta.set(key, value);
    return this;
  }

  createdAtMs(ms: number): this {
    this.createdAt = ms;
    return this;
  }

  payload(): TransactionPayload {
    return {
      chainId: this.chainId,
      authority: this.authority,
      creationTimeMs: this.createdAt ?? Date.now(),
      instructions: [...this.list],
      metadata: new Map(this.meta),
      ...(this.ttl === undefined ? {} : { ttlMs: this.ttl }),
      ...(this.nonceValue === undefined ? {} : { nonce: this.nonceValue }),
    };
  }

  sign(signer: Signer): BuiltTransaction {
    return encodeTransaction(signTransaction(this.payload(), signer));
  }
}

export function encodeTransaction(signed: SignedTransaction): BuiltTransaction {
  return {
    signed,
    bytes: encodeFrame(SCHEMA, SignedTransactionCodec, signed),
    hash: toHex(transactionHash(signed)),
  };
}
