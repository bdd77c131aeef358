// Pages of transactions and instructions read from the block store, newest first.
// No index serves these lists yet (the commit-time indexes of §1.4 are another part's work), so a page
// is cut from a scan of the blocks from the tip down to genesis (or the one block a `block` or
// `transaction_hash` filter names), counting every match so that `total_items` is true.
//
// Cost: every block of the range is read (the ledger's block cache holds the newest 256; older ones come
// from disk) and every transaction or instruction in it is matched. The scan charges a work budget
// (`query.work_units_max`): BLOCK_SCAN_UNITS per block and ITEM_SCAN_UNITS per item; when it is spent the
// request ends with 422 `query_budget_exceeded`. With the default budget that is ~15,000 blocks of a few
// transactions each; narrow a long chain with `block`, or use the per-account history.

import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { gatewayError } from '../../gateway/errors.js';
import type { ChainReader } from '../../gateway/ports.js';
import type { Block } from '../../model/block.js';

/** Work units per block read by a scan (reading and decoding it costs about as much as 16 items). */
export const BLOCK_SCAN_UNITS = 256;
export const ITEM_SCAN_UNITS = 16;
/** Longest run of scanning between two yields to the event loop. */
const SLICE_MS = 2;

/** An item's place in a block: transaction index and, for instructions, instruction index. */
export interface Place {
  tx: number;
  ins: number;
}

export interface ScanSpec<T> {
  /** Highest and lowest heights scanned (inclusive; from >= to, or nothing is scanned). */
  from: number;
  to: number;
  /** Items to skip and to keep (after filtering, newest first). */
  offset: number;
  limit: number;
  /** The block's places, newest first. */
  places(b: Block): Place[];
  keep(b: Block, p: Place): boolean;
  build(b: Block, p: Place): T;
}

/** Transaction places of a block, newest first. */
export function transactionPlaces(b: Block): Place[] {
  const out: Place[] = [];
  for (let tx = b.transactions.length - 1; tx >= 0; tx--) out.push({ tx, ins: 0 });
  return out;
}

/** Instruction places of a block, newest first (last instruction of the last transaction first). */
export function instructionPlaces(b: Block): Place[] {
  const out: Place[] = [];
  for (let tx = b.transactions.length - 1; tx >= 0; tx--) {
    const n = b.transactions[tx]!.payload.instructions.length;
    for (let ins = n - 1; ins >= 0; ins--) out.push({ tx, ins });
  }
  return out;
}

export async function scanNewestFirst<T>(
  chain: ChainReader,
  spec: ScanSpec<T>,
  workUnitsMax: number,
): Promise<{ items: T[]; total: number }> {
  let spent = 0;
  const items: T[] = [];
  let total = 0;
  let blocks = 0;
  let sliceStart = performance.now();
  for (let h = spec.from; h >= spec.to && h >= 1; h--) {
    if (performance.now() - sliceStart > SLICE_MS) {
      await yieldToLoop();
      sliceStart = performance.now();
    }
    const b = await chain.block(h);
    blocks++;
    spent += BLOCK_SCAN_UNITS;
    if (b === undefined) continue;
    for (const p of spec.places(b)) {
      spent += ITEM_SCAN_UNITS;
      if (!spec.keep(b, p)) continue;
      if (total >= spec.offset && items.length < spec.limit) items.push(spec.build(b, p));
      total++;
    }
    if (spent > workUnitsMax) {
      throw gatewayError('query_budget_exceeded', {
        limit: workUnitsMax,
        blocks_scanned: blocks,
        stopped_at_height: h,
        hint: 'narrow the scan with block=<height>',
      });
    }
  }
  return { items, total };
}
