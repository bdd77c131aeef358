// Re-executing blocks that other peers made (consensus-host.ts `executeProposed`, `appendSynced`). A
// proposal is checked cheapest first, so a bad one costs little: decoding (the node's decode limits),
// position (height, prevHash), shape (transaction count, the block limit, the block's weight, duplicates, transactions
// already committed, another chain's or expired transactions), the transactions root, the block time
// (never before its parent's), the signatures admission has not verified, then execution and the
// results root, the state root and finally the whole header hash. Every refusal has a stable code.

import type { DecodeLimits } from '../codec/limits.js';
import type { Algorithm } from '../crypto/keys.js';
import { type Block, blockHash, merkleRoot } from '../model/block.js';
import { decodeProposedBlockWithSpans, spanPayloadHash, spanTransactionHash } from '../model/block-spans.js';
import { parseAccountId } from '../model/ids.js';
import { parsePublicKey } from '../model/keys.js';
import { transactionHash } from '../model/transaction.js';
import { stateRootVersion } from '../state/merkle/hash.js';
import type { ProofVerdicts } from '../state/proof-verdicts.js';
import { assert } from '../util/assert.js';
import { bytesEqual, toHex } from '../util/hex.js';
import type { SignatureCheck } from './admission.js';
import { blockWeightProblem } from './block-weight.js';
import type { ProposalRefusal, ProposalVerdict } from './consensus-host.js';
import type { ExecutedBlock } from './executed-block.js';
import type { Ledger } from './ledger.js';
import type { VerifiedTransactions } from './verified-cache.js';

export interface ProposalCheckDeps {
  ledger: Ledger;
  chainId: string;
  decodeLimits: DecodeLimits;
  blockMaxTransactions: number;
  /** The chain's weight caps (docs/cost-model.md); a proposal over them is refused before execution. */
  blockMaxWeight: number;
  transactionMaxWeight: number;
  allowedAlgorithms: ReadonlySet<Algorithm>;
  verify: SignatureCheck;
  verified: VerifiedTransactions;
  /** Proof verdicts computed at admission (state/proof-verdicts.ts). */
  proofs?: ProofVerdicts | undefined;
}

function refuse(reason: ProposalRefusal, detail: string): ProposalVerdict {
  // A refusal says why: evidence and logs quote the detail.
  assert(detail !== '', `proposal refused (${reason}) without a detail`);
  return { ok: false, reason, detail };
}

export async function checkProposal(bytes: Uint8Array, d: ProposalCheckDeps): Promise<ProposalVerdict> {
  const decoded = decodeProposedBlockWithSpans(bytes, d.decodeLimits);
  if (!decoded.ok) return refuse('proposal_undecodable', `${decoded.error.code}: ${decoded.error.message}`);
  const { block, spans } = decoded.value;
  const { header, transactions } = block;
  const { ledger } = d;
  const expected = ledger.height() + 1;
  if (header.height !== expected)
    return refuse('proposal_height', `height ${header.height}, expected ${expected}`);
  if (!bytesEqual(header.prevHash, ledger.tipHash()))
    return refuse(
      'proposal_prev_hash',
      `prevHash ${toHex(header.prevHash)} is not the tip ${toHex(ledger.tipHash())}`,
    );
  const n = transactions.length;
  if (header.transactionCount !== n)
    return refuse(
      'proposal_transaction_count',
      `header says ${header.transactionCount}, the block holds ${n}`,
    );
  if (n > d.blockMaxTransactions)
    return refuse('proposal_too_many_transactions', `${n} transactions > ${d.blockMaxTransactions}`);
  const heavy = blockWeightProblem(transactions, d.blockMaxWeight, d.transactionMaxWeight);
  if (heavy !== undefined) return refuse('proposal_weight_exceeded', heavy);

  // The decoder records one span per transaction it decoded; hashes and signatures are taken from them.
  assert(spans.length === n, `proposal: ${spans.length} spans for ${n} decoded transactions`);
  const hashes = spans.map((s) => spanTransactionHash(bytes, s));
  const hashHexes = hashes.map((h) => toHex(h));
  const seen = new Set<string>();
  for (let i = 0; i < n; i++) {
    const hex = hashHexes[i]!;
    if (seen.has(hex)) return refuse('proposal_duplicate_transaction', `transaction ${hex} appears twice`);
    seen.add(hex);
    if (ledger.locate(hashes[i]!, hex) !== undefined)
      return refuse('proposal_already_committed', `transaction ${hex} is already committed`);
    const p = transactions[i]!.payload;
    if (p.chainId !== d.chainId)
      return refuse('proposal_foreign_transaction', `transaction ${hex} is for chain "${p.chainId}"`);
    if (p.ttlMs !== undefined && p.creationTimeMs + p.ttlMs <= header.creationTimeMs)
      return refuse('proposal_expired_transaction', `transaction ${hex} expired before the block time`);
  }
  if (!bytesEqual(merkleRoot(hashes), header.transactionsRoot))
    return refuse('proposal_transactions_root', 'the transactions root does not match the transactions');
  const parentTime = expected > 1 ? ledger.blockSync(expected - 1)?.header.creationTimeMs : undefined;
  if (parentTime !== undefined && header.creationTimeMs < parentTime)
    return refuse('proposal_time_regressed', `block time ${header.creationTimeMs} < parent ${parentTime}`);

  const bad = await firstBadSignature(bytes, block.transactions, spans, hashHexes, d);
  if (bad !== undefined) return refuse('proposal_bad_signature', bad);

  const executed = ledger.execute({
    view: header.view,
    creationTimeMs: header.creationTimeMs,
    transactions,
    hashes,
    hashHexes,
    encoded: spans.map((s) => bytes.slice(s.start, s.end)),
    proofs: d.proofs,
  });
  const mine = executed.header;
  if (!bytesEqual(mine.resultsRoot, header.resultsRoot))
    return refuse('proposal_results_root', 'executing the block gave other transaction results');
  if (!bytesEqual(mine.stateRoot, header.stateRoot))
    return refuse('proposal_state_root', `executing the block gave state root ${toHex(mine.stateRoot)}`);
  if (!bytesEqual(executed.hash, blockHash(header)))
    return refuse('proposal_header_mismatch', 'the header differs from the executed block in another field');
  return { ok: true, executed };
}

/** Verifies, concurrently, every signature not verified before; caches the good ones. */
async function firstBadSignature(
  bytes: Uint8Array,
  transactions: Block['transactions'],
  spans: { start: number; payloadEnd: number; end: number }[],
  hashHexes: string[],
  d: ProposalCheckDeps,
): Promise<string | undefined> {
  // Signatures are taken from the spans and reported by hash, all matched to transactions by position.
  assert(
    spans.length === transactions.length && hashHexes.length === transactions.length,
    `proposal: ${transactions.length} transactions, ${spans.length} spans, ${hashHexes.length} hashes`,
  );
  const checks: Promise<string | undefined>[] = [];
  for (let i = 0; i < transactions.length; i++) {
    const hex = hashHexes[i]!;
    if (d.verified.has(hex)) continue;
    const tx = transactions[i]!;
    const key = parsePublicKey(parseAccountId(tx.payload.authority)?.signatory ?? '');
    if (key === undefined || !d.allowedAlgorithms.has(key.algorithm))
      return `transaction ${hex}: the authority's key algorithm is not allowed`;
    checks.push(
      d.verify(key.bytes, spanPayloadHash(bytes, spans[i]!), tx.signature).then((ok) => {
        if (!ok) return `transaction ${hex}: the signature does not verify`;
        d.verified.add(hex);
        return undefined;
      }),
    );
  }
  for (const r of await Promise.all(checks)) if (r !== undefined) return r;
  return undefined;
}

export class HostError extends Error {
  override readonly name = 'HostError';
  constructor(
    readonly code: 'sync_height' | 'sync_prev_hash' | 'sync_certificate_mismatch' | 'sync_block_mismatch',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Executes a committed block learnt by sync (its certificate verified by the caller, so its
 * transactions' signatures were checked by a quorum) and checks it reproduces the block's header.
 */
export function executeSynced(ledger: Ledger, block: Block, proofs?: ProofVerdicts): ExecutedBlock {
  const { header, certificate } = block;
  const expected = ledger.height() + 1;
  if (header.height !== expected)
    throw new HostError('sync_height', `block ${header.height}, expected ${expected}`);
  if (!bytesEqual(header.prevHash, ledger.tipHash()))
    throw new HostError('sync_prev_hash', `block ${header.height} does not extend the tip`);
  const hash = blockHash(header);
  if (certificate.height !== header.height || !bytesEqual(certificate.blockHash, hash))
    throw new HostError(
      'sync_certificate_mismatch',
      `the certificate of block ${header.height} is for another block`,
    );
  const hashes = block.transactions.map((tx) => transactionHash(tx));
  const executed = ledger.execute({
    view: header.view,
    creationTimeMs: header.creationTimeMs,
    transactions: block.transactions,
    hashes,
    // A certified block of an older chain names the multiset root; a proposal never may (checkProposal).
    stateRootVersion: stateRootVersion(header.stateRoot),
    proofs,
  });
  // Executed synchronously on the tip just checked: for the block's own height and parent.
  assert(
    executed.header.height === header.height && bytesEqual(executed.header.prevHash, header.prevHash),
    `sync: block ${header.height} executed as ${executed.header.height}`,
  );
  if (!bytesEqual(executed.hash, hash))
    throw new HostError(
      'sync_block_mismatch',
      `executing block ${header.height} gave hash ${toHex(executed.hash)}, the block says ${toHex(hash)}`,
    );
  return executed;
}
