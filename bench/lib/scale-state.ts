// The state of the `state_1m_*` figures: N accounts in the domain `scale`, each holding one asset of
// `coin#scale`, as a genesis state file (node/genesis-import-lines.ts). Account keys are derived from
// the account's index (sha-256 of a label and the index, printed as an Ed25519 key text), so the bench
// process can name any account without keeping a million ids, and no private key is needed: these
// accounts are read, never signing.

import { createHash } from 'node:crypto';

export const SCALE_DOMAIN = 'scale';
export const SCALE_DEFINITION = `coin#${SCALE_DOMAIN}`;
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

/** The lines of the genesis state file: the domain, the definition, then accounts 0..n-1 and their balances. */
export function* scaleGenesisLines(n: number): Generator<string> {
  yield JSON.stringify({ domain: SCALE_DOMAIN });
  yield JSON.stringify({ definition: SCALE_DEFINITION, scale: 0 });
  for (let i = 0; i < n; i++)
    yield `{"account":"${scaleAccountId(i)}","balances":{"${SCALE_DEFINITION}":"${scaleBalance(i)}"}}`;
}
