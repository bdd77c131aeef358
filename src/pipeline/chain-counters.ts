// Counters derived from the chain itself (GET /status `blocks_non_empty`, `txs_approved`,
// `txs_rejected`): kept in the state store beside the world state, written with each block's state
// changes in the same store transaction, so they survive a restart and agree with the blocks stored.
// A store written before this key existed has none: the ledger counts the stored blocks once at open.
// The key starts with 0xFF, above every index prefix (tx-index.ts): never loaded as world state and
// not part of the state root.

import type { Block } from '../model/block.js';
import { assert } from '../util/assert.js';

export interface ChainCounters {
  /** Committed blocks holding at least one transaction. */
  blocksNonEmpty: number;
  /** Transactions committed with the result Committed. */
  txsApproved: number;
  /** Transactions committed in a block with a rejection. */
  txsRejected: number;
}

export const CHAIN_COUNTERS_KEY = Uint8Array.of(0xff, 0x63, 0x6f, 0x75, 0x6e, 0x74, 0x65, 0x72, 0x73);
const VERSION = 1;
const BYTES = 1 + 3 * 8;

export function zeroCounters(): ChainCounters {
  const c = { blocksNonEmpty: 0, txsApproved: 0, txsRejected: 0 };
  assert(encodeCounters(c).length === BYTES, 'chain counters: the zero record has another size');
  return c;
}

/** Adds one committed block's contribution to `c` (in place). */
export function countBlock(c: ChainCounters, block: Pick<Block, 'results'>): void {
  const before = c.txsApproved + c.txsRejected;
  if (block.results.length > 0) c.blocksNonEmpty++;
  for (const r of block.results) {
    if (r.kind === 'Committed') c.txsApproved++;
    else c.txsRejected++;
  }
  // Counters never go backwards, and each result is counted exactly once.
  assert(
    c.txsApproved + c.txsRejected === before + block.results.length,
    `chain counters moved from ${before} to ${c.txsApproved + c.txsRejected} over ${block.results.length} results`,
  );
}

function putU64(view: DataView, at: number, v: number): void {
  // Two u32 halves hold a safe integer exactly; anything else would be stored wrapped.
  assert(Number.isSafeInteger(v) && v >= 0 && at + 8 <= view.byteLength, `u64 ${v} at ${at}`);
  view.setUint32(at, v % 2 ** 32, true);
  view.setUint32(at + 4, Math.floor(v / 2 ** 32), true);
}

function getU64(view: DataView, at: number): number {
  // Offsets are this file's fixed layout, inside the length decodeCounters checked.
  assert(at + 8 <= view.byteLength, `u64 read at ${at} of ${view.byteLength} bytes`);
  return view.getUint32(at + 4, true) * 2 ** 32 + view.getUint32(at, true);
}

export function encodeCounters(c: ChainCounters): Uint8Array {
  const out = new Uint8Array(BYTES);
  const view = new DataView(out.buffer);
  out[0] = VERSION;
  putU64(view, 1, c.blocksNonEmpty);
  putU64(view, 9, c.txsApproved);
  putU64(view, 17, c.txsRejected);
  // What is written reads back (decodeCounters refuses nothing this version writes).
  assert(decodeCounters(out)?.txsRejected === c.txsRejected, 'chain counters do not read back');
  return out;
}

/** Undefined for bytes this version did not write (then the ledger counts the blocks again). */
export function decodeCounters(bytes: Uint8Array | undefined): ChainCounters | undefined {
  if (bytes === undefined || bytes.length !== BYTES || bytes[0] !== VERSION) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const c = { blocksNonEmpty: getU64(view, 1), txsApproved: getU64(view, 9), txsRejected: getU64(view, 17) };
  return Object.values(c).every(Number.isSafeInteger) ? c : undefined;
}
