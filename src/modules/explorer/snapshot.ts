// The holder distribution of one asset definition at the committed height,
// computed exactly in integers from the balances in the world state:
//
// - balances are rescaled to the definition's scale (they are stored at it) and sorted ascending;
// - Gini = Σ_i (2i − n − 1) · x_i / (n · Σ x), i = 1..n over ascending x (0 for fewer than 2 holders or a
//   zero total), reported in parts per million, rounded down;
// - the Lorenz curve has LORENZ_POINTS + 1 points: after each of LORENZ_POINTS equal steps of holders
//   (rounded down to a whole holder), the share of the quantity those poorest holders hold, in ppm;
// - top holders: the SNAPSHOT_TOP_MAX largest balances, ties by account id, with their share in ppm.
// Cost: O(holders · log holders) for the sort; the holder list comes from the state's per-definition index.

import type { Asset } from '../../model/entities.js';
import { parseAssetId } from '../../model/ids.js';
import { type Numeric, rescale } from '../../model/numeric.js';
import type { ExplorerSnapshot } from './views-more.js';

export const LORENZ_POINTS = 10;
export const SNAPSHOT_TOP_MAX = 10;
const PPM = 1_000_000n;

interface Holding {
  account: string;
  amount: bigint;
}

function ppm(part: bigint, whole: bigint): number {
  return whole === 0n ? 0 : Number((part * PPM) / whole);
}

export function gini(ascending: readonly bigint[], total: bigint): number {
  const n = BigInt(ascending.length);
  if (n < 2n || total === 0n) return 0;
  let sum = 0n;
  ascending.forEach((x, i) => {
    sum += (2n * BigInt(i + 1) - n - 1n) * x;
  });
  return Number((sum * PPM) / (n * total));
}

export function lorenz(ascending: readonly bigint[], total: bigint) {
  const points = [{ holdersPpm: 0, quantityPpm: 0 }];
  const n = ascending.length;
  let cum = 0n;
  let taken = 0;
  for (let k = 1; k <= LORENZ_POINTS; k++) {
    const upTo = Math.floor((n * k) / LORENZ_POINTS);
    for (; taken < upTo; taken++) cum += ascending[taken]!;
    points.push({
      holdersPpm: Math.floor((k * 1_000_000) / LORENZ_POINTS),
      quantityPpm: n === 0 ? 0 : ppm(cum, total),
    });
  }
  return points;
}

export function holderSnapshot(
  definitionId: string,
  scale: number,
  height: number,
  balances: readonly Asset[],
): ExplorerSnapshot {
  const holdings: Holding[] = [];
  for (const a of balances) {
    const amount = rescale(a.value, scale) ?? a.value.mantissa;
    const account = parseAssetId(a.id)?.account ?? a.id;
    if (amount > 0n) holdings.push({ account, amount });
  }
  const total = holdings.reduce((s, h) => s + h.amount, 0n);
  const ascending = holdings.map((h) => h.amount).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const top = [...holdings]
    .sort((a, b) => (a.amount > b.amount ? -1 : a.amount < b.amount ? 1 : a.account < b.account ? -1 : 1))
    .slice(0, SNAPSHOT_TOP_MAX);
  const numeric = (mantissa: bigint): Numeric => ({ mantissa, scale });
  return {
    definitionId,
    height,
    holders: holdings.length,
    totalQuantity: numeric(total),
    giniPpm: gini(ascending, total),
    lorenz: lorenz(ascending, total),
    topHolders: top.map((h) => ({
      accountId: h.account,
      quantity: numeric(h.amount),
      sharePpm: ppm(h.amount, total),
    })),
  };
}
