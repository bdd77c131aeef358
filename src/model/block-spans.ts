// A block decoded together with where each transaction lies in the bytes it was decoded from. The codec
// is canonical (docs/codec.md §8): a decoded value re-encodes to exactly the bytes it came from, so the
// payload hash a signature covers and the transaction hash can be taken over those byte ranges instead
// of encoding every transaction again (replay at start-up and `torana verify` hash every transaction of
// the chain).

import { type DecodeResult, decodeWith } from '../codec/frame.js';
import type { DecodeLimits } from '../codec/limits.js';
import { hash } from '../crypto/hash.js';
import {
  type Block,
  BlockCodec,
  BlockHeaderCodec,
  CommitCertificateCodec,
  type ProposedBlock,
  ProposedBlockCodec,
  TransactionResultsCodec,
} from './block.js';
import { SignatureBytes } from './keys.js';
import { type SignedTransaction, SignedTransactionCodec, TransactionPayloadCodec } from './transaction.js';

/** Offsets into the decoded bytes: the signed transaction is [start, end), its payload [start, payloadEnd). */
export interface TransactionSpan {
  start: number;
  payloadEnd: number;
  end: number;
}

export interface SpannedBlock {
  block: Block;
  spans: TransactionSpan[];
}

/** The field layout this reader follows; checked once so a change to either struct cannot go unnoticed. */
function fieldNames(
  c: typeof BlockCodec | typeof ProposedBlockCodec | typeof SignedTransactionCodec,
): string {
  const d = c.describe((x) => x.name ?? '');
  return d.kind === 'struct' ? d.fields.map((f) => f.name).join(',') : d.kind;
}
if (
  fieldNames(BlockCodec) !== 'header,transactions,results,certificate' ||
  fieldNames(ProposedBlockCodec) !== 'header,transactions' ||
  fieldNames(SignedTransactionCodec) !== 'payload,signature'
) {
  throw new Error('model/block-spans.ts no longer matches the Block or SignedTransaction layout');
}

/**
 * Exactly `decode(BlockCodec, bytes, limits)` (same value, same errors at the same offsets, the same
 * depth and item limits), plus each transaction's span.
 */
export function decodeBlockWithSpans(bytes: Uint8Array, limits: DecodeLimits): DecodeResult<SpannedBlock> {
  return decodeWith(bytes, limits, (r) => {
    r.enter();
    const header = BlockHeaderCodec.decode(r);
    const { transactions, spans } = transactionsWithSpans(r);
    const results = TransactionResultsCodec.decode(r);
    const certificate = CommitCertificateCodec.decode(r);
    r.leave();
    return { block: { header, transactions, results, certificate }, spans };
  });
}

export interface SpannedProposedBlock {
  block: ProposedBlock;
  spans: TransactionSpan[];
}

/** Exactly `decode(ProposedBlockCodec, bytes, limits)`, plus each transaction's span. */
export function decodeProposedBlockWithSpans(
  bytes: Uint8Array,
  limits: DecodeLimits,
): DecodeResult<SpannedProposedBlock> {
  return decodeWith(bytes, limits, (r) => {
    r.enter();
    const header = BlockHeaderCodec.decode(r);
    const { transactions, spans } = transactionsWithSpans(r);
    r.leave();
    return { block: { header, transactions }, spans };
  });
}

type CodecReader = Parameters<typeof BlockHeaderCodec.decode>[0];

/** The transaction sequence of a block, with where each transaction lies. */
function transactionsWithSpans(r: CodecReader): {
  transactions: SignedTransaction[];
  spans: TransactionSpan[];
} {
  const n = r.length(r.limits.itemsMax, SignedTransactionCodec.minBytes);
  r.enter();
  const transactions: SignedTransaction[] = new Array(n);
  const spans: TransactionSpan[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const start = r.pos;
    r.enter();
    const payload = TransactionPayloadCodec.decode(r);
    const payloadEnd = r.pos;
    const signature = SignatureBytes.decode(r);
    r.leave();
    transactions[i] = { payload, signature };
    spans[i] = { start, payloadEnd, end: r.pos };
  }
  r.leave();
  return { transactions, spans };
}

/** The hash a transaction's signature covers (= payloadHash of the decoded payload). */
export function spanPayloadHash(bytes: Uint8Array, s: TransactionSpan): Uint8Array {
  return hash(bytes.subarray(s.start, s.payloadEnd));
}

/** The transaction hash (= transactionHash of the decoded transaction). */
export function spanTransactionHash(bytes: Uint8Array, s: TransactionSpan): Uint8Array {
  return hash(bytes.subarray(s.start, s.end));
}
