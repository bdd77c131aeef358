// Chain-wide counts of the explorer's metrics: committed and rejected
// transactions in blocks 1..height, and the mean time from a block's creation to this node applying it.
//
// The counts are built by reading blocks once, oldest first, and kept in memory: each metrics request
// extends them towards the tip under `query.work_units_max` (BLOCK_SCAN_UNITS per block), and the feed
// adds every new block as it is applied. An answer whose `totals_height` is below `height` is partial:
// the next request continues where this one stopped. Nothing is stored: a restart counts again.

import type { ChainReader } from '../../gateway/ports.js';
import type { Block } from '../../model/block.js';
import { BLOCK_SCAN_UNITS } from './scan.js';

/** Commit-time samples kept for the mean (the newest ones). */
export const COMMIT_SAMPLES_MAX = 256;

export class ChainTotals {
  height = 0;
  accepted = 0;
  rejected = 0;
  private readonly commitMs: number[] = [];

  /** Counts `b` when it is the next block. */
  add(b: Block): void {
    if (b.header.height !== this.height + 1) return;
    for (const r of b.results) {
      if (r.kind === 'Rejected') this.rejected++;
      else this.accepted++;
    }
    this.height = b.header.height;
  }

  /** One applied block: `nowMs` is when this node applied it. */
  applied(b: Block, nowMs: number): void {
    this.add(b);
    this.commitMs.push(Math.max(0, nowMs - b.header.creationTimeMs));
    if (this.commitMs.length > COMMIT_SAMPLES_MAX) this.commitMs.shift();
  }

  commitTimeMsAvg(): number {
    if (this.commitMs.length === 0) return 0;
    return Math.round(this.commitMs.reduce((s, x) => s + x, 0) / this.commitMs.length);
  }

  /** Reads blocks after `height` towards the tip until `workUnitsMax` is spent. */
  async catchUp(chain: ChainReader, workUnitsMax: number): Promise<void> {
    let spent = 0;
    while (this.height < chain.height() && spent + BLOCK_SCAN_UNITS <= workUnitsMax) {
      spent += BLOCK_SCAN_UNITS;
      const b = await chain.block(this.height + 1);
      if (b === undefined) return;
      this.add(b);
    }
  }
}
