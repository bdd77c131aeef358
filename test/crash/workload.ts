// The crash tests' workload (kill -9 during a stream of submissions): one domain,
// a fixed set of accounts whose keys are derived from constant seeds (so a restarted child and the
// checking parent know them without any shared file), one asset definition, and a known amount minted
// into every account by a single atomic setup transaction. Random transfers between the accounts follow;
// some ask for more than the source holds, so the executor rejects them (`insufficient_funds`) and
// records the rejection in the block.

import type { Instruction } from '../../src/model/instructions.js';
import type { Numeric } from '../../src/model/numeric.js';
import { newAccount, type TestAccount } from '../helpers/tx.js';

export const WORKLOAD_DOMAIN = 'crashland';
export const WORKLOAD_DEFINITION = `coin#${WORKLOAD_DOMAIN}`;
export const WORKLOAD_SCALE = 2;
export const WORKLOAD_ACCOUNTS = 8;
/** Minted into each account at setup, as a mantissa at WORKLOAD_SCALE (1,000.00). */
export const MINT_PER_ACCOUNT = 100_000n;
export const MINTED_TOTAL = MINT_PER_ACCOUNT * BigInt(WORKLOAD_ACCOUNTS);
/** Share of transfers that ask for more than everything minted, so they must be rejected. */
const OVERDRAFT_SHARE = 0.1;
/** Largest ordinary transfer (mantissa): a fifth of one account's start balance, so balances drift. */
const TRANSFER_MANTISSA_MAX = 20_000;

/** The workload accounts, always the same keys (seed bytes 1..N). */
export function workloadAccounts(): TestAccount[] {
  const out: TestAccount[] = [];
  for (let i = 0; i < WORKLOAD_ACCOUNTS; i++) out.push(newAccount(WORKLOAD_DOMAIN, i + 1));
  return out;
}

export function assetOf(account: string): string {
  return `${WORKLOAD_DEFINITION}#${account}`;
}

/** One transaction registering everything and minting MINT_PER_ACCOUNT into each account. */
export function setupInstructions(accounts: readonly TestAccount[]): Instruction[] {
  const empty = new Map();
  const amount: Numeric = { mantissa: MINT_PER_ACCOUNT, scale: WORKLOAD_SCALE };
  return [
    { kind: 'RegisterDomain', id: WORKLOAD_DOMAIN, metadata: empty },
    ...accounts.map((a): Instruction => ({ kind: 'RegisterAccount', id: a.id, metadata: empty })),
    {
      kind: 'RegisterAssetDefinition',
      id: WORKLOAD_DEFINITION,
      scale: WORKLOAD_SCALE,
      mintable: { kind: 'Infinitely' },
      metadata: empty,
    },
    ...accounts.map((a): Instruction => ({ kind: 'MintAsset', asset: assetOf(a.id), amount })),
  ];
}

export interface Transfer {
  from: TestAccount;
  instruction: Instruction;
}

/** A random transfer between two distinct workload accounts, drawn from `random` (uniform in [0, 1)). */
export function randomTransfer(accounts: readonly TestAccount[], random: () => number): Transfer {
  const i = Math.floor(random() * accounts.length);
  const j = (i + 1 + Math.floor(random() * (accounts.length - 1))) % accounts.length;
  const from = accounts[i]!;
  const to = accounts[j]!;
  const mantissa =
    random() < OVERDRAFT_SHARE ? MINTED_TOTAL + 1n : BigInt(1 + Math.floor(random() * TRANSFER_MANTISSA_MAX));
  return {
    from,
    instruction: {
      kind: 'TransferAsset',
      source: assetOf(from.id),
      destination: to.id,
      amount: { mantissa, scale: WORKLOAD_SCALE },
    },
  };
}

/** A small seeded generator (xorshift32), so a failing run's choices replay from its printed seed. */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}
