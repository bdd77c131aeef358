// The pacemaker's floors: the measured round trip's and the last decided round's, the latter capped at
// the longest timeout and off at multiplier 0.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { viewTimeout } from './pacemaker.js';
import { DEFAULT_PACEMAKER } from './types.js';

const o = { ...DEFAULT_PACEMAKER, jitterPermille: 0 };

describe('viewTimeout', () => {
  it('is never below the last decided round x round_floor_multiplier', () => {
    assert.equal(viewTimeout(o, 5, 0, 0, 0).ms, 2000);
    const t = viewTimeout(o, 5, 0, 0, 0, 1500);
    assert.equal(t.roundFloorMs, 4500);
    assert.equal(t.ms, 4500);
    // A later view still grows past the floor once the growth is above it.
    assert.equal(viewTimeout(o, 5, 3, 0, 0, 1500).ms, 6750);
  });

  it('caps the round floor at the longest timeout, and multiplier 0 turns it off', () => {
    assert.equal(viewTimeout(o, 5, 0, 0, 0, 60_000).ms, o.maxMs);
    assert.equal(viewTimeout({ ...o, roundFloorMultiplier: 0 }, 5, 0, 0, 0, 1500).ms, 2000);
  });

  it('keeps the round-trip floor apart from the round floor', () => {
    const t = viewTimeout(o, 5, 0, 0, 1000, 100);
    assert.deepEqual([t.floorMs, t.roundFloorMs, t.ms], [4000, 300, 4000]);
  });
});
