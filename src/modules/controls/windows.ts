// Transfer control windows (docs/controls.md): the UTC buckets of block time a period cap counts in, and
// the windows' names on the routes, the SDK and the CLI.

import { CONTROL_WINDOWS, type ControlWindowKind } from './model.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * The start (ms, UTC) of the bucket of `window` holding `blockTimeMs`: hours and days from the epoch,
 * weeks from Monday 00:00 (1970-01-01 was a Thursday), months from the 1st 00:00 of the calendar month.
 * Pure calendar arithmetic on the block time: the same on every peer. Tx has no bucket (0).
 */
export function bucketStart(window: ControlWindowKind, blockTimeMs: number): number {
  switch (window) {
    case 'Tx':
      return 0;
    case 'Hour':
      return Math.floor(blockTimeMs / HOUR_MS) * HOUR_MS;
    case 'Day':
      return Math.floor(blockTimeMs / DAY_MS) * DAY_MS;
    case 'Week': {
      const day = Math.floor(blockTimeMs / DAY_MS);
      const sinceMonday = (((day + 3) % 7) + 7) % 7;
      return (day - sinceMonday) * DAY_MS;
    }
    case 'Month': {
      const d = new Date(blockTimeMs);
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    }
  }
}

/** Window names on the routes, the SDK and the CLI. */
export function windowName(w: ControlWindowKind): string {
  return w.toLowerCase();
}

export function parseWindowName(name: string): ControlWindowKind | undefined {
  return CONTROL_WINDOWS.find((w) => windowName(w) === name);
}
