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
}

/** A chain with no blocks, for nodes or tests that do not serve block queries. */
export const EMPTY_BLOCK_SOURCE: BlockSource = Object.freeze({
  height: () => 0,
  block: () => undefined,
  transaction: () => undefined,
  transactionsOfAccount: () => [],
});
