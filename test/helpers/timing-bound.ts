// Timing bounds (latency, throughput, elapsed time) are not asserted by `npm test`: on a loaded 2-core
// machine a figure says more about the neighbours than about the code. A test measures its figure and
// hands it here: `npm test` prints it; test/reliability/timing-bounds.test.ts runs every file that calls
// timingBound() again with TEST_TIMING_BOUNDS=1, where the bound is asserted.

import assert from 'node:assert/strict';

/** Set by test/reliability/timing-bounds.test.ts for the files it runs (not a TORANA_ name: the node refuses those). */
export const TIMING_BOUNDS_ENV = 'TEST_TIMING_BOUNDS';

export function timingBoundsAsserted(): boolean {
  return process.env[TIMING_BOUNDS_ENV] === '1';
}

export interface TimingBound {
  /** What was measured, e.g. `/health at worst under bad input`. */
  what: string;
  value: number;
  /** `value` must be below (`max`) or above (`min`) this. */
  max?: number;
  min?: number;
  unit?: string;
  /** Print only a figure outside its bound (for checks run thousands of times, e.g. every decoded input). */
  quietWithin?: boolean;
}

/** Prints the figure and says whether it is within its bound; asserts that under TEST_TIMING_BOUNDS=1. */
export function timingBound(b: TimingBound): boolean {
  const unit = b.unit ?? 'ms';
  const within = (b.max === undefined || b.value < b.max) && (b.min === undefined || b.value > b.min);
  const bound = [b.min === undefined ? '' : `> ${b.min}`, b.max === undefined ? '' : `< ${b.max}`]
    .filter((x) => x !== '')
    .join(', ');
  const text = `${b.what}: ${b.value.toFixed(1)} ${unit} (bound ${bound} ${unit})`;
  if (!within || b.quietWithin !== true)
    console.log(`[timing] ${text}${within ? '' : ' — outside its bound'}`);
  if (timingBoundsAsserted()) assert.ok(within, text);
  return within;
}
