// The holder distribution of one asset definition at the committed height,
// computed exactly in integers from the balances in the world state:
//
// - balances are rescaled to the definition's scale (they are stored at it) and taken in ascending order;
// - Gini = Σ_i (2i − n − 1) · x_i / (n · Σ x), i = 1..n over ascending x (0 for fewer than 2 holders or a
//   zero total), reported in parts per million, rounded down;
// - the Lorenz curve has LORENZ_POINTS + 1 points: after each of LORENZ_POINTS equal steps of holders
//   (rounded down to a whole holder), the share of the quantity those poorest holders hold, in ppm;
// - top holders: the SNAPSHOT_TOP_MAX largest balances, ties by account id, with their share in ppm.
//
// One pass over the holders in ascending order (`Distribution`), in bounded memory: a state on disk gives
// them in that order from its ordered holder index (`orderedHolders`), SNAPSHOT_READ_STEP at a time, each
// balance read from its order key; a state in the heap keeps no such index, so its holders are listed and
// sorted. Every holder is read either way (the statistics need every balance): a definition with more
// holders than the query work budget answers 422 query_budget_exceeded before any is read.

import { gatewayError } from '../../gateway/errors.js';
import type { StateReader } from '../../gateway/ports.js';
import type { Asset } from '../../model/entities.js';
import { parseAssetId } from '../../model/ids.js';
import { type Numeric, rescale } from '../../model/numeric.js';
import { orderKeyMantissa } from '../../state/state-index-keys.js';
import { assert } from '../../util/assert.js';
import type { ExplorerSnapshot } from './views-more.js';

export const LORENZ_POINTS = 10;
export const SNAPSHOT_TOP_MAX = 10;
/** Holders read from the ordered index at a time. */
export const SNAPSHOT_READ_STEP = 4096;
const PPM = 1_000_000n;

interface Holding {
  /** The holder's account id, or its asset id (one definition's asset ids order as their accounts). */
  holder: string;
  amount: bigint;
}

function ppm(part: bigint, whole: bigint): number {
  return whole === 0n ? 0 : Number((part * PPM) / whole);
}

/** Larger amount first, then the smaller holder id. */
function before(a: Holding, b: Holding): boolean {
  return a.amount > b.amount || (a.amount === b.amount && a.holder < b.holder);
}

/** The statistics of `n` holders fed one at a time in ascending order of amount. */
export class Distribution {
  /** Holders fed so far. */
  private count = 0;
  private total = 0n;
  /** Σ (2i − n − 1) · x_i over the holders fed. */
  private weighted = 0n;
  /** The quantity of the poorest floor(n·k / LORENZ_POINTS) holders, by k; filled as the feed passes them. */
  private readonly cumulative: bigint[] = [0n];
  private readonly top: Holding[] = [];

  constructor(private readonly n: number) {
    assert(Number.isSafeInteger(n) && n >= 0, `distribution of ${n} holders`);
    this.mark();
  }

  private boundary(k: number): number {
    return Math.floor((this.n * k) / LORENZ_POINTS);
  }

  /** Records the Lorenz points whose boundary the feed has reached. */
  private mark(): void {
    const c = this.cumulative;
    while (c.length <= LORENZ_POINTS && this.boundary(c.length) === this.count) c.push(this.total);
  }

  /** The next holder: `holder` is its account id or asset id (the same kind for every holder fed). */
  add(holder: string, amount: bigint): void {
    assert(this.count < this.n, `more than the ${this.n} holders counted`);
    this.count++;
    this.total += amount;
    this.weighted += (2n * BigInt(this.count) - BigInt(this.n) - 1n) * amount;
    this.mark();
    const h = { holder, amount };
    const top = this.top;
    if (top.length === SNAPSHOT_TOP_MAX && !before(h, top[top.length - 1]!)) return;
    let at = top.length;
    while (at > 0 && before(h, top[at - 1]!)) at--;
    top.splice(at, 0, h);
    if (top.length > SNAPSHOT_TOP_MAX) top.pop();
  }

  /** The snapshot; `account` names a holder fed as an asset id by its account. */
  finish(
    definitionId: string,
    scale: number,
    height: number,
    account: (holder: string) => string = (h) => h,
  ): ExplorerSnapshot {
    assert(this.count === this.n, `${this.count} holders fed of the ${this.n} counted`);
    assert(this.cumulative.length === LORENZ_POINTS + 1, 'a Lorenz point for every step');
    const { n, total } = this;
    const numeric = (mantissa: bigint): Numeric => ({ mantissa, scale });
    return {
      definitionId,
      height,
      holders: n,
      totalQuantity: numeric(total),
      giniPpm: n < 2 || total === 0n ? 0 : Number((this.weighted * PPM) / (BigInt(n) * total)),
      lorenz: this.cumulative.map((cum, k) => ({
        holdersPpm: Math.floor((k * 1_000_000) / LORENZ_POINTS),
        quantityPpm: n === 0 ? 0 : ppm(cum, total),
      })),
      topHolders: this.top.map((h) => ({
        accountId: account(h.holder),
        quantity: numeric(h.amount),
        sharePpm: ppm(h.amount, total),
      })),
    };
  }
}

const accountOf = (assetId: string) => parseAssetId(assetId)?.account ?? assetId;

/** A balance at the definition's scale (its mantissa as stored when it has more fraction digits). */
function listedAmount(a: Asset | undefined, scale: number): bigint | undefined {
  return a === undefined ? undefined : (rescale(a.value, scale) ?? a.value.mantissa);
}

/** The snapshot of listed balances (any order; empty ones dropped). */
export function holderSnapshot(
  definitionId: string,
  scale: number,
  height: number,
  balances: readonly Asset[],
): ExplorerSnapshot {
  const holdings: Holding[] = [];
  for (const a of balances) {
    const amount = listedAmount(a, scale)!;
    if (amount > 0n) holdings.push({ holder: accountOf(a.id), amount });
  }
  holdings.sort((a, b) => (a.amount < b.amount ? -1 : a.amount > b.amount ? 1 : 0));
  const d = new Distribution(holdings.length);
  for (const h of holdings) d.add(h.holder, h.amount);
  return d.finish(definitionId, scale, height);
}

/**
 * The snapshot of `definition` in `state`: from its ordered holder index when the state is on disk, else
 * from its listed holders, `step` at a time. 422 query_budget_exceeded when it has more holders than
 * `workUnitsMax`.
 */
export function definitionSnapshot(
  state: StateReader,
  d: { id: string; scale: number },
  height: number,
  workUnitsMax: number,
  step = SNAPSHOT_READ_STEP,
): ExplorerSnapshot {
  const n = state.holderCount(d.id);
  if (n > workUnitsMax)
    throw gatewayError('query_budget_exceeded', {
      limit: workUnitsMax,
      holders: n,
      hint: 'the snapshot reads every holder of the definition',
    });
  const first = state.orderedHolders(d.id, { descending: false, max: step });
  if (first === undefined) return holderSnapshot(d.id, d.scale, height, state.holdersOfDefinition(d.id));
  const dist = new Distribution(n);
  let steps = first;
  for (;;) {
    for (const s of steps) {
      const amount = orderKeyMantissa(s.key, d.scale) ?? listedAmount(state.asset(s.child), d.scale);
      assert(amount !== undefined && amount > 0n, `holder ${s.child} without a balance in its index entry`);
      dist.add(s.child, amount);
    }
    if (steps.length < step) break;
    steps = state.orderedHolders(d.id, { descending: false, after: steps.at(-1)!, max: step })!;
  }
  return dist.finish(d.id, d.scale, height, accountOf);
}
