// Event ids that survive a restart. A committed event's id is derived from where it
// sits in the chain: `height * ID_SPAN + position`, so the same event has the same id in every run of
// the node and resuming after a restart neither skips nor repeats. Layout of one height's span:
//   [0, APPLIED_POSITION)            the block's events in order (Block Committed first, then each
//                                    transaction's status and data events);
//   APPLIED_POSITION                 Block Applied, always the block's last event: its id is known from
//                                    the height alone, so a restarted node knows where its history starts;
//   [PENDING_BASE, ID_SPAN)          pending notifications issued after this block and before the next
//                                    (Transaction Queued / Expired): not part of the chain, numbered per
//                                    run, resumable only within the run that issued them.
// Ids stay below 2^53 (JSON-safe integers) for heights up to 2^29 (536,870,912).

import { assert } from '../util/assert.js';

export const ID_SPAN = 2 ** 24;
export const PENDING_BASE = 2 ** 23;
export const APPLIED_POSITION = PENDING_BASE - 1;

export function committedEventId(height: number, position: number): number {
  assert(position >= 0 && position <= APPLIED_POSITION, 'event position out of the committed range');
  const id = height * ID_SPAN + position;
  assert(Number.isSafeInteger(id), 'event id above 2^53');
  return id;
}

/** The id of height's Block Applied event, the last event of that block (0 before genesis). */
export function appliedEventId(height: number): number {
  assert(Number.isSafeInteger(height) && height >= 0, `Block Applied id of height ${height}`);
  return height === 0 ? 0 : committedEventId(height, APPLIED_POSITION);
}

/** The `seq`-th pending notification after block `height` (saturates at the end of the span). */
export function pendingEventId(height: number, seq: number): number {
  const id = height * ID_SPAN + PENDING_BASE + Math.min(seq, ID_SPAN - PENDING_BASE - 1);
  assert(Number.isSafeInteger(id) && seq >= 0, `pending event ${seq} after height ${height}: id ${id}`);
  return id;
}

/** The height whose span holds `id`, and whether `id` is a pending notification's. */
export function eventIdPlace(id: number): { height: number; pending: boolean } {
  return { height: Math.floor(id / ID_SPAN), pending: id % ID_SPAN >= PENDING_BASE };
}
