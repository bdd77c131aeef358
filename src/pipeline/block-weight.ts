// The weight a block's transactions may take (docs/cost-model.md "Caps" and "Per-account share"): the
// block builder takes transactions within it (pipeline.ts `takeTransactions`, both proposers) and
// followers refuse a proposal beyond it (proposal-check.ts). Both use the static weight of each
// transaction, which needs no state, so every peer computes the same totals.

import type { SignedTransaction } from '../model/transaction.js';
import { accountShare, transactionsShare, transactionWeight } from '../model/weights.js';
import { assert } from '../util/assert.js';
import type { QueuedTransaction, WeightBudget } from './queue.js';

/** The builder's budget under the chain's BlockMaxWeight and TransactionMaxWeight. */
export function blockWeightBudget(blockMaxWeight: number, transactionMaxWeight: number): WeightBudget {
  // Chain parameters (varuints): a NaN or fractional cap would make every `w > left` test false.
  assert(
    Number.isSafeInteger(blockMaxWeight) &&
      blockMaxWeight >= 0 &&
      Number.isSafeInteger(transactionMaxWeight) &&
      transactionMaxWeight >= 0,
    `block weight budget from BlockMaxWeight ${blockMaxWeight}, TransactionMaxWeight ${transactionMaxWeight}`,
  );
  return {
    total: transactionsShare(blockMaxWeight),
    perAccount: accountShare(blockMaxWeight, transactionMaxWeight),
    weightOf: (q: QueuedTransaction) => q.weight ?? transactionWeight(q.tx.payload.instructions),
  };
}

/** Why a block's transactions are over weight, or undefined when they fit. */
export function blockWeightProblem(
  transactions: readonly SignedTransaction[],
  blockMaxWeight: number,
  transactionMaxWeight: number,
): string | undefined {
  const budget = blockWeightBudget(blockMaxWeight, transactionMaxWeight);
  let total = 0;
  const byAuthority = new Map<string, number>();
  for (const tx of transactions) {
    const w = transactionWeight(tx.payload.instructions);
    // Every transaction weighs at least its base weight: a NaN would make the total pass any cap.
    assert(Number.isSafeInteger(w) && w > 0, `a proposed transaction weighs ${w}`);
    total += w;
    const authority = tx.payload.authority;
    const mine = (byAuthority.get(authority) ?? 0) + w;
    byAuthority.set(authority, mine);
    if (mine > budget.perAccount)
      return `${authority}'s transactions weigh ${mine} > its share ${budget.perAccount}`;
  }
  if (total > budget.total)
    return `the transactions weigh ${total} > ${budget.total} (BlockMaxWeight ${blockMaxWeight} less the due work's fifth)`;
  return undefined;
}
