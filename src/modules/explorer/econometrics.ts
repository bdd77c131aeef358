// Issuance and transfer activity of one asset definition over a window of blocks:
// mints, burns and transfers of committed transactions in blocks
// [from_height, to_height], in totals and in equal buckets of heights, and velocity = transfer volume /
// current supply (ppm). Amounts are exact (bigint at the definition's scale).
//
// Cost: every block of the window is read (no asset-definition index is used: another part builds it)
// and every instruction matched; the scan charges BLOCK_SCAN_UNITS per block and ITEM_SCAN_UNITS per
// instruction against `query.work_units_max` and ends with 422 `query_budget_exceeded` past it. The
// default window is the newest ECONOMETRICS_WINDOW_DEFAULT blocks.

import { gatewayError } from '../../gateway/errors.js';
import type { ChainReader } from '../../gateway/ports.js';
import { parseAssetId } from '../../model/ids.js';
import type { Instruction } from '../../model/instructions.js';
import { type Numeric, rescale } from '../../model/numeric.js';
import { BLOCK_SCAN_UNITS, ITEM_SCAN_UNITS } from './scan.js';
import type { ExplorerEconometrics } from './views-more.js';

export const ECONOMETRICS_WINDOW_DEFAULT = 1000;
export const ECONOMETRICS_BUCKETS_DEFAULT = 10;
export const ECONOMETRICS_BUCKETS_MAX = 100;
const VELOCITY_PPM_MAX = 2 ** 52;

export interface Window {
  from: number;
  to: number;
  buckets: number;
}

interface Sums {
  minted: bigint;
  burned: bigint;
  volume: bigint;
  mints: number;
  burns: number;
  transfers: number;
}

const zero = (): Sums => ({ minted: 0n, burned: 0n, volume: 0n, mints: 0, burns: 0, transfers: 0 });

function add(s: Sums, i: Instruction, definition: string, scale: number): void {
  const amountOf = (n: Numeric) => rescale(n, scale) ?? n.mantissa;
  const defOf = (asset: string) => parseAssetId(asset)?.definition;
  if (i.kind === 'MintAsset' && defOf(i.asset) === definition) {
    s.minted += amountOf(i.amount);
    s.mints++;
  } else if (i.kind === 'BurnAsset' && defOf(i.asset) === definition) {
    s.burned += amountOf(i.amount);
    s.burns++;
  } else if (i.kind === 'TransferAsset' && defOf(i.source) === definition) {
    s.volume += amountOf(i.amount);
    s.transfers++;
  }
}

export async function econometrics(
  chain: ChainReader,
  d: { id: string; scale: number; supply: Numeric },
  w: Window,
  workUnitsMax: number,
): Promise<ExplorerEconometrics> {
  const total = zero();
  const span = w.to >= w.from ? w.to - w.from + 1 : 0;
  const size = Math.max(1, Math.ceil(span / w.buckets));
  const buckets: { from: number; to: number; s: Sums }[] = [];
  for (let from = w.from; from <= w.to; from += size)
    buckets.push({ from, to: Math.min(w.to, from + size - 1), s: zero() });
  let spent = 0;
  for (let h = w.from; h <= w.to; h++) {
    spent += BLOCK_SCAN_UNITS;
    const b = await chain.block(h);
    const bucket = buckets[Math.floor((h - w.from) / size)]!;
    b?.transactions.forEach((t, tx) => {
      if (b.results[tx]?.kind !== 'Committed') return;
      for (const i of t.payload.instructions) {
        spent += ITEM_SCAN_UNITS;
        add(total, i, d.id, d.scale);
        add(bucket.s, i, d.id, d.scale);
      }
    });
    if (spent > workUnitsMax)
      throw gatewayError('query_budget_exceeded', {
        limit: workUnitsMax,
        blocks_scanned: h - w.from + 1,
        hint: 'narrow the window with from_height / to_height',
      });
  }
  const num = (m: bigint): Numeric => ({ mantissa: m, scale: d.scale });
  const supply = rescale(d.supply, d.scale) ?? d.supply.mantissa;
  const velocity = supply === 0n ? 0n : (total.volume * 1_000_000n) / supply;
  return {
    definitionId: d.id,
    fromHeight: w.from,
    toHeight: w.to,
    minted: num(total.minted),
    burned: num(total.burned),
    transferVolume: num(total.volume),
    mints: total.mints,
    burns: total.burns,
    transfers: total.transfers,
    supply: num(supply),
    velocityPpm: velocity > BigInt(VELOCITY_PPM_MAX) ? VELOCITY_PPM_MAX : Number(velocity),
    buckets: buckets.map((k) => ({
      fromHeight: k.from,
      toHeight: k.to,
      minted: num(k.s.minted),
      burned: num(k.s.burned),
      transferVolume: num(k.s.volume),
      transfers: k.s.transfers,
    })),
  };
}
