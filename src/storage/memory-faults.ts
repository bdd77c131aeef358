// The fault model of the in-memory stores (memory-block-store.ts, memory-state-backend.ts): a disk that
// can refuse a write and that loses, in a crash, every write not yet made durable. Kept deliberately
// small. A store lives on a *medium* (the simulated disk) that outlives the store: a crash bumps the
// medium's epoch, which drops every write still waiting for its sync and closes every store opened
// before it; reopening a store on the same medium finds exactly what was durable.

import { assert } from '../util/assert.js';
import { StorageError } from './errors.js';

export type MemoryWriteKind = 'block-append' | 'state-commit';

export interface MemoryFaults {
  /**
   * Asked before each write (`height`: the first height written). Returning a message makes that write
   * fail as an I/O error would (`storage_failed`), and the store refuses further writes until reopened.
   */
  failWrite?(kind: MemoryWriteKind, height: number): string | undefined;
  /**
   * Awaited between a write and its durability (a simulated fsync; the simulator resolves it on its
   * clock). A crash of the medium before it resolves drops the write. Absent: durable at once.
   */
  sync?(kind: MemoryWriteKind, height: number): Promise<void>;
}

/** The part shared by both media: an epoch that a crash advances. */
export class MemoryMedium {
  private epochValue = 0;
  /** Counts writes dropped by crashes (for simulator reports and tests). */
  droppedWrites = 0;

  get epoch(): number {
    return this.epochValue;
  }

  /** A power cut: unsynced writes are lost and stores opened before now are closed. */
  crash(): void {
    const before = this.epochValue;
    this.epochValue++;
    // Epochs only move forward: a store opened before the crash can never see its epoch again.
    assert(this.epochValue === before + 1, 'memory medium: epoch did not advance');
  }
}

/** Runs the fault hooks around one write; `apply` makes it durable only if no crash came between. */
export async function writeThrough(
  medium: MemoryMedium,
  faults: MemoryFaults,
  kind: MemoryWriteKind,
  height: number,
  apply: () => void,
): Promise<void> {
  // Writes are named by the first height they write (checked by the store before).
  assert(Number.isSafeInteger(height) && height >= 1, `memory ${kind} at height ${height}`);
  const epoch = medium.epoch;
  const failure = faults.failWrite?.(kind, height);
  if (failure !== undefined) throw new StorageError('storage_failed', failure, { kind, height });
  if (faults.sync !== undefined) await faults.sync(kind, height);
  if (medium.epoch !== epoch) {
    medium.droppedWrites++;
    throw new StorageError('storage_failed', 'the medium crashed before the write was durable', {
      kind,
      height,
    });
  }
  apply();
  // Applied within one epoch: no crash came between the check and the write.
  assert(medium.epoch === epoch, `memory ${kind} at ${height}: applied across a crash`);
}
