// Executing a proposed block against a scratch view, and sealing it into a header (docs/design/architecture.md).

import {
  type Block,
  type BlockHeader,
  blockHash,
  type CommitCertificate,
  merkleRoot,
  resultHashes,
  type TransactionResult,
} from '../model/block.js';
import type { DataEvent } from '../model/events.js';
import type { SignedTransaction } from '../model/transaction.js';
import { BlockExecution, type DueRun } from '../state/executor.js';
import type { ProofVerdicts } from '../state/proof-verdicts.js';
import type { WorldState } from '../state/world-state.js';
import { assert } from '../util/assert.js';
import { bytesEqual, toHex } from '../util/hex.js';

export interface Proposal {
  height: number;
  prevHash: Uint8Array;
  view: number;
  creationTimeMs: number;
  transactions: SignedTransaction[];
  hashes: Uint8Array[];
  /** The hashes as lower-case hex, when the caller already has them (computed otherwise). */
  hashHexes?: string[];
  /** Each transaction's canonical encoding as received, when known (see model/block.ts encodeBlock). */
  encoded?: readonly (Uint8Array | undefined)[];
  genesis: boolean;
  /**
   * The header version whose state root the header takes (docs/design/state.md): 2 (the state tree) for
   * every new block; 1 (the multiset root) only to re-execute a stored block of an older chain.
   */
  stateRootVersion?: 1 | 2;
  /** Proof verdicts computed at admission (state/proof-verdicts.ts): speed only, never an outcome. */
  proofs?: ProofVerdicts | undefined;
}

export interface ExecutedBlock {
  header: BlockHeader;
  hash: Uint8Array;
  transactions: SignedTransaction[];
  hashes: Uint8Array[];
  hashHexes: string[];
  /** Canonical encodings of `transactions` as received, when known; used to encode the block. */
  encodedTransactions?: readonly (Uint8Array | undefined)[];
  results: TransactionResult[];
  events: DataEvent[][];
  /** The due work run after the transactions (state/module-host.ts), in order, with its events. */
  dueRuns: DueRun[];
  execution: BlockExecution;
}

export function executeProposal(state: WorldState, chainId: string, p: Proposal): ExecutedBlock {
  assert(
    p.hashes.length === p.transactions.length && p.prevHash.length === 32,
    `block ${p.height}: ${p.transactions.length} transactions with ${p.hashes.length} hashes`,
  );
  // Header fields, encoded as unsigned integers; block 1 is the genesis block.
  assert(
    Number.isSafeInteger(p.height) &&
      p.height >= 1 &&
      p.genesis === (p.height === 1) &&
      Number.isSafeInteger(p.view) &&
      p.view >= 0 &&
      Number.isSafeInteger(p.creationTimeMs) &&
      p.creationTimeMs >= 0,
    `block ${p.height} (genesis ${p.genesis}) at view ${p.view}, time ${p.creationTimeMs}`,
  );
  const execution = new BlockExecution(
    state,
    { height: p.height, blockTimeMs: p.creationTimeMs, chainId, genesis: p.genesis },
    { proofs: p.proofs },
  );
  const results: TransactionResult[] = [];
  const events: DataEvent[][] = [];
  for (let i = 0; i < p.transactions.length; i++) {
    const out = execution.apply(p.transactions[i]!, p.hashes[i]!);
    results.push(out.result);
    events.push(out.events);
  }
  const dueRuns = execution.runDueWork();
  const stateRoot = execution.stateRootOfVersion(p.stateRootVersion ?? 2);
  // The header commits to a 32-byte state root (the state tree's root; an old block's multiset root).
  assert(stateRoot.length === 32, `block ${p.height}: a ${stateRoot.length}-byte state root`);
  const header: BlockHeader = {
    height: p.height,
    prevHash: p.prevHash,
    transactionsRoot: merkleRoot(p.hashes),
    resultsRoot: merkleRoot(resultHashes(results)),
    stateRoot,
    creationTimeMs: p.creationTimeMs,
    view: p.view,
    transactionCount: p.transactions.length,
  };
  return {
    header,
    hash: blockHash(header),
    transactions: p.transactions,
    hashes: p.hashes,
    hashHexes: p.hashHexes ?? p.hashes.map((h) => toHex(h)),
    ...(p.encoded === undefined ? {} : { encodedTransactions: p.encoded }),
    results,
    events,
    dueRuns,
    execution,
  };
}

export function sealBlock(executed: ExecutedBlock, certificate: CommitCertificate): Block {
  // A stored block carries one result per transaction, and the certificate of this very block.
  assert(
    executed.results.length === executed.transactions.length &&
      certificate.height === executed.header.height &&
      bytesEqual(certificate.blockHash, executed.hash),
    `sealing block ${executed.header.height} (${executed.transactions.length} transactions, ` +
      `${executed.results.length} results) with the certificate of height ${certificate.height}`,
  );
  return {
    header: executed.header,
    transactions: executed.transactions,
    results: executed.results,
    certificate,
  };
}
