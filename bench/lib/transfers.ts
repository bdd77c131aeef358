// Signed one-transfer transactions for the load figures: many funded accounts (so the per-account
// queue cap never binds), amounts of 1 (so no transfer is ever rejected for funds), a nonce per
// transaction (so no two are identical).

import { loadKeyFile } from '../../src/crypto/keyfile.js';
import { accountId } from '../../src/model/ids.js';
import type { Instruction } from '../../src/model/instructions.js';
import { transactionHash } from '../../src/model/transaction.js';
import { nodeFiles } from '../../src/node/files.js';
import { GENESIS_DOMAIN } from '../../src/node/init.js';
import { toHex } from '../../src/util/hex.js';
import { buildTx, frameTx, newAccount, type TestAccount } from '../../test/helpers/tx.js';

export const BENCH_DOMAIN = 'bench';
export const BENCH_DEFINITION = `unit#${BENCH_DOMAIN}`;
/** Accounts that send transfers; the queue's per-account cap (4,096 by default) times this bounds load. */
export const BENCH_ACCOUNTS = 256;
/** Minted into each account: enough for any run's transfers of 1. */
const MINT_PER_ACCOUNT = 1_000_000_000_000n;

export function benchAccounts(count = BENCH_ACCOUNTS): TestAccount[] {
  return Array.from({ length: count }, () => newAccount(BENCH_DOMAIN));
}

export async function adminOf(dir: string): Promise<TestAccount> {
  const key = await loadKeyFile(nodeFiles(dir).adminKey);
  return { key, id: accountId(key.publicKeyText(), GENESIS_DOMAIN) };
}

export function setupInstructions(accounts: readonly { id: string }[]): Instruction[] {
  const empty = new Map();
  return [
    { kind: 'RegisterDomain', id: BENCH_DOMAIN, metadata: empty },
    ...accounts.map((a): Instruction => ({ kind: 'RegisterAccount', id: a.id, metadata: empty })),
    {
      kind: 'RegisterAssetDefinition',
      id: BENCH_DEFINITION,
      scale: 0,
      mintable: { kind: 'Infinitely' },
      metadata: empty,
    },
    ...accounts.map(
      (a): Instruction => ({
        kind: 'MintAsset',
        asset: `${BENCH_DEFINITION}#${a.id}`,
        amount: { mantissa: MINT_PER_ACCOUNT, scale: 0 },
      }),
    ),
  ];
}

/** An endless source of framed transfers, round-robin over the accounts. */
export function transferSource(accounts: readonly TestAccount[], chainId: string): () => Uint8Array {
  const next = signedTransferSource(accounts, chainId);
  return () => next().bytes;
}

/** Like transferSource, with each transaction's hash (hex), for matching commit events. */
export function signedTransferSource(
  accounts: readonly TestAccount[],
  chainId: string,
): () => { bytes: Uint8Array; hashHex: string } {
  let n = 0;
  return () => {
    const from = accounts[n % accounts.length]!;
    const to = accounts[(n + 1) % accounts.length]!;
    const instruction: Instruction = {
      kind: 'TransferAsset',
      source: `${BENCH_DEFINITION}#${from.id}`,
      destination: to.id,
      amount: { mantissa: 1n, scale: 0 },
    };
    const tx = buildTx(from, [instruction], { chainId, nonce: n++ });
    return { bytes: frameTx(tx), hashHex: toHex(transactionHash(tx)) };
  };
}

/**
 * Takes `count` items of `source` before a measurement starts, so signing does not take CPU from the
 * node being measured; if a run needs more, the rest come from `source` on the fly (counted in
 * `stats.onTheFly`). `spent` replaces a handed-out item so it can be collected.
 */
export function presignedFrom<T>(source: () => T, count: number, spent: T) {
  const items = Array.from({ length: count }, () => source());
  let i = 0;
  const stats = { onTheFly: 0 };
  const next = (): T => {
    const item = items[i];
    if (item === undefined) {
      stats.onTheFly++;
      return source();
    }
    items[i++] = spent;
    return item;
  };
  return { next, stats };
}

/** `presignedFrom` over signed transfers with their hashes (for loads matched against commit events). */
export function presignedSigned(accounts: readonly TestAccount[], chainId: string, count: number) {
  return presignedFrom(signedTransferSource(accounts, chainId), count, {
    bytes: new Uint8Array(0),
    hashHex: '',
  });
}
