// The state of the `state_1m_*` figures: N accounts in the domain `scale`, each holding
// one asset of `coin#scale`. Account keys are derived from the account's index (sha-256 of a label and
// the index, printed as an Ed25519 key text), so the bench process can name any account without keeping
// a million ids, and no private key is needed: these accounts are read, never signing.

import { createHash } from 'node:crypto';
import type { Instruction } from '../../src/model/instructions.js';

export const SCALE_DOMAIN = 'scale';
export const SCALE_DEFINITION = `coin#${SCALE_DOMAIN}`;
/** Accounts registered and funded by one transaction (2 instructions each; well under 64 KiB). */
export const SCALE_ACCOUNTS_PER_TX = 250;
/** Balances are spread over 1..BALANCE_SPREAD, so a balance filter keeps a known share of the holders. */
export const BALANCE_SPREAD = 1_000_000;

/** The id of account `i` (0-based). */
export function scaleAccountId(i: number): string {
  const digest = createHash('sha256').update(`torana-bench-scale-${i}`).digest('hex').toUpperCase();
  return `ed0120${digest}@${SCALE_DOMAIN}`;
}

/** Account `i`'s balance: a fixed permutation of 1..BALANCE_SPREAD, so many accounts share each value. */
export function scaleBalance(i: number): bigint {
  return BigInt(((i * 7919) % BALANCE_SPREAD) + 1);
}

/** The domain and the asset definition, registered once before the accounts. */
export function scaleSetup(): Instruction[] {
  const empty = new Map();
  return [
    { kind: 'RegisterDomain', id: SCALE_DOMAIN, metadata: empty },
    {
      kind: 'RegisterAssetDefinition',
      id: SCALE_DEFINITION,
      scale: 0,
      mintable: { kind: 'Infinitely' },
      metadata: empty,
    },
  ];
}

/** Registers accounts [from, to) and mints each its balance. */
export function scaleAccountInstructions(from: number, to: number): Instruction[] {
  const out: Instruction[] = [];
  const empty = new Map();
  for (let i = from; i < to; i++) {
    const id = scaleAccountId(i);
    out.push({ kind: 'RegisterAccount', id, metadata: empty });
    out.push({
      kind: 'MintAsset',
      asset: `${SCALE_DEFINITION}#${id}`,
      amount: { mantissa: scaleBalance(i), scale: 0 },
    });
  }
  return out;
}
