// Executing a proposed block against a scratch view, and sealing it into a header (architecture.md step 3).

import {
  type Block,
  type BlockHeader,
  blockHash,
  type CommitCertificate,
  merkleRoot,
  resultHash,
  type TransactionResult,
} from '../model/block.js';
import type { DataEvent } from '../model/events.js';
import type { SignedTransaction } from '../model/transaction.js';
import { BlockExecution } from '../state/executor.js';
import type { WorldState } from '../state/world-state.js';

export interface Proposal {
  height: number;
  prevHash: Uint8Array;
  view: number;
  creationTimeMs: number;
  transactions: SignedTransaction[];
  hashes: Uint8Array[];
  genesis: boolean;
}

export interface ExecutedBlock {
  header: BlockHeader;
  hash: Uint8Array;
  transactions: SignedTransaction[];
  hashes: Uint8Array[];
  results: TransactionResult[];
  events: DataEvent[][];
  execution: BlockExecution;
}

export function executeProposal(state: WorldState, chainId: string, p: Proposal): ExecutedBlock {
  const execution = new BlockExecution(state, {
    height: p.height,
    blockTimeMs: p.creationTimeMs,
    chainId,
    genesis: p.genesis,
  });
  const results: TransactionResult[] = [];
  const events: DataEvent[][] = [];
  for (let i = 0; i < p.transactions.length; i++) {
    const out = execution.apply(p.transactions[i]!, p.hashes[i]!);
    results.push(out.result);
    events.push(out.events);
  }
  const header: BlockHeader = {
    height: p.height,
    prevHash: p.prevHash,
    transactionsRoot: merkleRoot(p.hashes),
    resultsRoot: merkleRoot(results.map(resultHash)),
    stateRoot: execution.stateRoot(),
    creationTimeMs: p.creationTimeMs,
    view: p.view,
    transactionCount: p.transactions.length,
  };
  return {
    header,
    hash: blockHash(header),
    transactions: p.transactions,
    hashes: p.hashes,
    results,
    events,
    execution,
  };
}

export function sealBlock(executed: ExecutedBlock, certificate: CommitCertificate): Block {
  return {
    header: executed.header,
    transactions: executed.transactions,
    results: executed.results,
    certificate,
  };
}
