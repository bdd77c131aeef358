// Blocks (docs/data-model.md §Blocks). The block hash covers the header only; the header commits to the
// transactions and their results through Merkle roots and to the world state through the state root.
// The commit certificate proves that the validator set agreed on the block (one signer in single-peer mode).

import type { Infer } from '../codec/codec.js';
import { enumOf, seq, struct } from '../codec/compound.js';
import { encode } from '../codec/frame.js';
import { bytes, fixedBytes, varuint } from '../codec/primitives.js';
import { Writer } from '../codec/writer.js';
import { hash } from '../crypto/hash.js';
import {
  BLOCK_MERKLE,
  merkleRoot as domainMerkleRoot,
  merkleProof,
  verifyMerkleProof,
} from '../crypto/merkle.js';
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

/** Consensus phases a certificate can prove. */
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

/**
 * A block as a leader proposes it, before it is certified: the header and the transactions. Results are
 * not sent (every replica computes them; the header commits to them through `resultsRoot`).
 */
export const ProposedBlockCodec = struct('ProposedBlock', {
  header: BlockHeaderCodec,
  transactions: seq(SignedTransactionCodec),
});
export type ProposedBlock = Infer<typeof ProposedBlockCodec>;

/**
 * `encode(ProposedBlockCodec, …)` byte for byte, copying each `encodedTransactions[i]` that is given (the
 * canonical encoding of `transactions[i]`, as in `encodeBlock`).
 */
export function encodeProposedBlock(
  block: ProposedBlock,
  encodedTransactions?: readonly (Uint8Array | undefined)[],
): Uint8Array {
  const txs = block.transactions;
  if (encodedTransactions !== undefined && encodedTransactions.length !== txs.length)
    throw new RangeError(`${encodedTransactions.length} encodings for ${txs.length} transactions`);
  const w = new Writer(256 + txs.length * 256);
  BlockHeaderCodec.encode(w, block.header);
  w.varuint(txs.length);
  for (let i = 0; i < txs.length; i++) {
    const raw = encodedTransactions?.[i];
    if (raw === undefined) SignedTransactionCodec.encode(w, txs[i]!);
    else w.bytes(raw);
  }
  return w.finish();
}

export const ZERO_HASH = new Uint8Array(32);

export const TransactionResultsCodec = seq(TransactionResultCodec);

/**
 * The block's bare encoding, byte for byte `encode(BlockCodec, block)`. Where `encodedTransactions[i]` is
 * given it must be the canonical encoding of `block.transactions[i]` (the bytes admission decoded it
 * from and hashed); it is copied instead of encoding the transaction again, which on the commit path
 * costs more than the rest of the block together. The codec is canonical (docs/codec.md §8), which is
 * also what makes the admission hash equal the hash a replay recomputes.
 */
export function encodeBlock(
  block: Block,
  encodedTransactions?: readonly (Uint8Array | undefined)[],
  sizeHint = 256,
): Uint8Array {
  if (encodedTransactions === undefined) return encode(BlockCodec, block, sizeHint);
  const txs = block.transactions;
  if (encodedTransactions.length !== txs.length)
    throw new RangeError(`${encodedTransactions.length} encodings for ${txs.length} transactions`);
  const w = new Writer(sizeHint);
  BlockHeaderCodec.encode(w, block.header);
  w.varuint(txs.length);
  for (let i = 0; i < txs.length; i++) {
    const raw = encodedTransactions[i];
    if (raw === undefined) SignedTransactionCodec.encode(w, txs[i]!);
    else w.bytes(raw);
  }
  TransactionResultsCodec.encode(w, block.results);
  CommitCertificateCodec.encode(w, block.certificate);
  return w.finish();
}

export function blockHash(header: BlockHeader): Uint8Array {
  return hash(encode(BlockHeaderCodec, header));
}

/**
 * The block header's Merkle root (transactionsRoot, resultsRoot) over leaf hashes: crypto/merkle.ts with
 * the BLOCK_MERKLE domain — leaves as they are (no leaf prefix, kept for compatibility: see there),
 * pairs hashed with a 0x01 prefix, an odd last node carried up unchanged, the empty tree's root the hash
 * of the empty string. Order matters. The root is always a fresh array, never one of the leaves.
 */
export function merkleRoot(leaves: readonly Uint8Array[]): Uint8Array {
  return domainMerkleRoot(BLOCK_MERKLE, leaves);
}

/**
 * The audit path of leaf `index` among `leaves` in the tree `merkleRoot` builds (RFC 6962 §2.1.1, leaf
 * side first; [] when out of range): with the block's transaction hashes it shows one transaction in
 * `transactionsRoot`, with `resultHashes` its result in `resultsRoot`.
 */
export function blockMerklePath(index: number, leaves: readonly Uint8Array[]): Uint8Array[] {
  return merkleProof(BLOCK_MERKLE, index, leaves);
}

/**
 * Does `path` show `leaf` at `index` of a block root over `count` leaves? `count` must come from the
 * header (`transactionCount`): the block domain has no leaf prefix (crypto/merkle.ts), and a fixed count
 * fixes the path's length, so an inner node can never be shown as a leaf.
 */
export function verifyBlockMerklePath(
  leaf: Uint8Array,
  index: number,
  count: number,
  path: readonly Uint8Array[],
  root: Uint8Array,
): boolean {
  if (
    leaf.length !== HASH_LEAF_BYTES ||
    path.some((p) => !(p instanceof Uint8Array) || p.length !== HASH_LEAF_BYTES)
  )
    return false;
  return verifyMerkleProof(BLOCK_MERKLE, leaf, index, count, path, root);
}

const HASH_LEAF_BYTES = 32;

/** The hash of the `Committed` result, the same for every committed transaction (see resultHashes). */
const COMMITTED_RESULT: TransactionResult = Object.freeze({ kind: 'Committed' });

/** The Merkle leaves of a block's results: one shared leaf object for every `Committed` result. */
export function resultHashes(results: readonly TransactionResult[]): Uint8Array[] {
  let committed: Uint8Array | undefined;
  return results.map((r) => {
    if (r.kind !== 'Committed') return resultHash(r);
    committed ??= resultHash(COMMITTED_RESULT);
    return committed;
  });
}

export function resultHash(r: TransactionResult): Uint8Array {
  return hash(encode(TransactionResultCodec, r));
}
