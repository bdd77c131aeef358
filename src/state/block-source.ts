// The port through which queries read committed blocks (the node supplies it from the block store; tests
// use an in-memory fake). Transactions are located by (block height, index in the block).

import type { Block } from '../model/block.js';

export interface TxLocation {
  readonly blockHeight: number;
  readonly index: number;
}

export interface BlockSource {
  /** Height of the newest committed block (0 before genesis). */
  height(): number;
  block(height: number): Block | undefined;
  /** Where the transaction with this hash (64 lower-case hex digits) was committed. */
  transaction(hashHex: string): TxLocation | undefined;
  /** Transactions whose authority is `accountId`, oldest first. */
  transactionsOfAccount(accountId: string): readonly TxLocation[];
  /**
   * Transactions in blocks 1..height together (0 for height 0). Queries locate the n-th transaction of
   * the chain with it, so it must be cheap: the node keeps running counts instead of re-reading blocks.
   */
  transactionsUpTo(height: number): number;
}

/** A chain with no blocks, for nodes or tests that do not serve block queries. */
export const EMPTY_BLOCK_SOURCE: BlockSource = Object.freeze({
  height: () => 0,
  block: () => undefined,
  transaction: () => undefined,
  transactionsOfAccount: () => [],
  transactionsUpTo: () => 0,
});
