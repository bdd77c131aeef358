// The soak workload: one-transfer transactions between a fixed set of funded accounts whose keys come
// from constant seeds (so the node process that funds them and the load generator that signs for them
// need not share anything), one unit at a time, so that no transfer can ever be refused for funds.

import { numeric } from '../../../src/model/numeric.js';
import { buildTx, frameTx, newAccount, type TestAccount } from '../../helpers/tx.js';

export const SOAK_DOMAIN = 'soak';
export const SOAK_DEFINITION = `unit#${SOAK_DOMAIN}`;
/** Enough accounts that the per-account queue cap (4,096) is never what limits the rate. */
export const SOAK_ACCOUNTS = 32;

export function soakAccounts(): TestAccount[] {
  return Array.from({ length: SOAK_ACCOUNTS }, (_, i) => newAccount(SOAK_DOMAIN, i + 1));
}

/** The n-th transfer: account n → account n+1 (mod the set), 1 unit, unique by its nonce. */
export function soakTransfer(accounts: readonly TestAccount[], chainId: string, n: number): Uint8Array {
  const from = accounts[n % accounts.length]!;
  const to = accounts[(n + 1) % accounts.length]!;
  const transfer = {
    kind: 'TransferAsset' as const,
    source: `${SOAK_DEFINITION}#${from.id}`,
    destination: to.id,
    amount: numeric('1'),
  };
  return frameTx(buildTx(from, [transfer], { chainId, nonce: n }));
}
