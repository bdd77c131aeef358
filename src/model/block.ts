// Blocks (docs/data-model.md §Blocks). The block hash covers the header only; the header commits to the
// transactions and their results through Merkle roots and to the world state through the state root.
// The commit certificate proves that the validator set agreed on the block (one signer in single-peer mode).

import type { Infer } from '../codec/codec.js';
import { enumOf, seq, struct } from '../codec/compound.js';
import { encode } from '../codec/frame.js';
import { bytes, fixedBytes, varuint } from '../codec/primitives.js';
import { hash } from '../crypto/hash.js';
import { HashBytes } from './keys.js';
import { RejectionCodec } from './rejections.js';
import { SignedTransactionCodec } from './transaction.js';

export const TransactionResultCodec = enumOf('TransactionResult', {
  Committed: {},
  Rejected: { reason: RejectionCodec },
});
export type TransactionResult = Infer<typeof TransactionResultCodec>;

export const BlockHeaderCodec = struct('BlockHeader', {
  height: varuint,
  prevHash: HashBytes,
  transactionsRoot: HashBytes,
  resultsRoot: HashBytes,
  stateRoot: HashBytes,
  creationTimeMs: varuint,
  view: varuint,
  transactionCount: varuint,
});
export type BlockHeader = Infer<typeof BlockHeaderCodec>;

/** Consensus phases a certificate can prove (reference-notes §7). */
export const CertificatePhaseCodec = enumOf('CertificatePhase', { Prepare: {}, Commit: {}, NewView: {} });

export const CommitCertificateCodec = struct('CommitCertificate', {
  phase: CertificatePhaseCodec,
  height: varuint,
  view: varuint,
  epoch: varuint,
  blockHash: HashBytes,
  validatorSetHash: HashBytes,
  /** Bitmap over the canonical (sorted) validator roster: bit i set when validator i signed. */
  signers: bytes(1024),
  /** One BLS12-381 aggregate signature over the vote message of every signer. */
  signature: fixedBytes(96),
});
export type CommitCertificate = Infer<typeof CommitCertificateCodec>;

export const BlockCodec = struct('Block', {
  header: BlockHeaderCodec,
  transactions: seq(SignedTransactionCodec),
  results: seq(TransactionResultCodec),
  certificate: CommitCertificateCodec,
});
export type Block = Infer<typeof BlockCodec>;

export const ZERO_HASH = new Uint8Array(32);

export function blockHash(header: BlockHeader): Uint8Array {
  return hash(encode(BlockHeaderCodec, header));
}

/**
 * Binary Merkle root over leaf hashes: leaves are hashed pairwise with a 0x01 prefix, an odd last node is
 * carried up unchanged, and the empty tree's root is the hash of the empty string. Order matters.
 */
export function merkleRoot(leaves: Uint8Array[]): Uint8Array {
  if (leaves.length === 0) return hash(new Uint8Array(0));
  let level = leaves;
  while (level.length > 1) {
    const next: Uint8Array[] = [];
    for (let i = 0; i < level.length; i += 2) {
      const a = level[i]!;
      const b = level[i + 1];
      if (b === undefined) next.push(a);
      else {
        const buf = new Uint8Array(65);
        buf[0] = 1;
        buf.set(a, 1);
        buf.set(b, 33);
        next.push(hash(buf));
      }
    }
    level = next;
  }
  return level[0]!;
}

export function resultHash(r: TransactionResult): Uint8Array {
  return hash(encode(TransactionResultCodec, r));
}
