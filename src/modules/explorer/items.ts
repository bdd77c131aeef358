// Blocks, committed transactions and their instructions as explorer items (views.ts, views-more.ts).
//

import { encode } from '../../codec/frame.js';
import { type Block, blockHash } from '../../model/block.js';
import { InstructionCodec } from '../../model/instructions.js';
import { readableRejection } from '../../model/rejection-text.js';
import { RejectionCodec } from '../../model/rejections.js';
import { transactionHash } from '../../model/transaction.js';
import { toHex } from '../../util/hex.js';
import type {
  ExplorerBlock,
  ExplorerBlockDetail,
  ExplorerTransaction,
  ExplorerTransactionDetail,
} from './views.js';
import type { ExplorerInstruction } from './views-more.js';

/** The one executable kind without a contract VM (`Instructions` or `ContractCall`). */
export const EXECUTABLE_INSTRUCTIONS = 'Instructions';

function rejectedCount(b: Block): number {
  let n = 0;
  for (const r of b.results) if (r.kind === 'Rejected') n++;
  return n;
}

/** Set bits of the certificate's signer bitmap. */
function popcount(bitmap: Uint8Array): number {
  let n = 0;
  for (let byte of bitmap) {
    for (; byte !== 0; byte &= byte - 1) n++;
  }
  return n;
}

export function blockSummary(b: Block): ExplorerBlock {
  const h = b.header;
  return {
    height: h.height,
    hash: toHex(blockHash(h)),
    prevHash: toHex(h.prevHash),
    creationTimeMs: h.creationTimeMs,
    view: h.view,
    transactionCount: b.transactions.length,
    rejectedCount: rejectedCount(b),
  };
}

/** The summary of transaction `index` of `b`; undefined when the block has no such transaction. */
export function transactionSummary(b: Block, index: number): ExplorerTransaction | undefined {
  const tx = b.transactions[index];
  const result = b.results[index];
  if (tx === undefined || result === undefined) return undefined;
  return {
    hash: toHex(transactionHash(tx)),
    blockHeight: b.header.height,
    index,
    authority: tx.payload.authority,
    creationTimeMs: tx.payload.creationTimeMs,
    instructionCount: tx.payload.instructions.length,
    result,
    status: result.kind,
    executable: EXECUTABLE_INSTRUCTIONS,
  };
}

export function blockDetail(b: Block): ExplorerBlockDetail {
  const h = b.header;
  const c = b.certificate;
  const transactions: ExplorerTransaction[] = [];
  for (let i = 0; i < b.transactions.length; i++) transactions.push(transactionSummary(b, i)!);
  return {
    ...blockSummary(b),
    transactionsRoot: toHex(h.transactionsRoot),
    resultsRoot: toHex(h.resultsRoot),
    stateRoot: toHex(h.stateRoot),
    transactions,
    certificate: {
      phase: c.phase,
      height: c.height,
      view: c.view,
      epoch: c.epoch,
      blockHash: toHex(c.blockHash),
      validatorSetHash: toHex(c.validatorSetHash),
      signerCount: popcount(c.signers),
      signers: c.signers,
    },
  };
}

export function transactionDetail(b: Block, index: number): ExplorerTransactionDetail | undefined {
  const tx = b.transactions[index];
  const result = b.results[index];
  if (tx === undefined || result === undefined) return undefined;
  const p = tx.payload;
  return {
    hash: toHex(transactionHash(tx)),
    blockHeight: b.header.height,
    blockHash: toHex(blockHash(b.header)),
    index,
    authority: p.authority,
    creationTimeMs: p.creationTimeMs,
    ...(p.ttlMs === undefined ? {} : { ttlMs: p.ttlMs }),
    ...(p.nonce === undefined ? {} : { nonce: p.nonce }),
    metadata: p.metadata,
    instructions: p.instructions,
    signature: tx.signature,
    result,
    status: result.kind,
    executable: EXECUTABLE_INSTRUCTIONS,
    ...(result.kind === 'Rejected'
      ? {
          rejectionReason: {
            encoded: toHex(encode(RejectionCodec, result.reason)),
            json: result.reason,
            // As a person reads it: amounts at their definition's scale. `json` keeps the committed
            // message (consensus data, base units), `encoded` its bytes.
            message: readableRejection(result.reason.code, result.reason.message),
          },
        }
      : {}),
  };
}

/** Instruction `ins` of transaction `tx` of `b`; `txHash` is the transaction's hash in hex. */
export function instructionItem(
  b: Block,
  tx: number,
  ins: number,
  txHash: string,
): ExplorerInstruction | undefined {
  const t = b.transactions[tx];
  const i = t?.payload.instructions[ins];
  const result = b.results[tx];
  if (t === undefined || i === undefined || result === undefined) return undefined;
  return {
    authority: t.payload.authority,
    creationTimeMs: t.payload.creationTimeMs,
    kind: i.kind,
    box: { encoded: toHex(encode(InstructionCodec, i)), json: i },
    transactionHash: txHash,
    transactionStatus: result.kind,
    blockHeight: b.header.height,
    transactionIndex: tx,
    index: ins,
  };
}

/**
 * One page of transactions over blocks given newest first (`counts[i]` = transactions of block i), newest
 * first within a block too: skips `offset` transactions, then takes at most `count`. Returns positions.
 */
export function newestFirst(
  counts: readonly number[],
  offset: number,
  count: number,
): { block: number; index: number }[] {
  const out: { block: number; index: number }[] = [];
  let skip = offset;
  for (let b = 0; b < counts.length && out.length < count; b++) {
    const n = counts[b]!;
    if (skip >= n) {
      skip -= n;
      continue;
    }
    for (let i = n - 1 - skip; i >= 0 && out.length < count; i--) out.push({ block: b, index: i });
    skip = 0;
  }
  return out;
}
