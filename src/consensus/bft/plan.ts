// Who leads and who collects votes at (height, view) (design: "Roster"). Per height the canonical roster
// is shuffled by a pseudo-random function of (chain id, height); each view rotates the plan by one slot;
// slot 0 leads, and it and the next k − 1 slots collect votes. Pure, so `/leader` and `/collectors` are
// checkable by anyone holding the roster.

import { struct } from '../../codec/compound.js';
import { encode } from '../../codec/frame.js';
import { string, varuint } from '../../codec/primitives.js';
import { blake2b256, hash } from '../../crypto/hash.js';
import { assert } from '../../util/assert.js';

/** What the shuffle seed of a height is the ledger hash of (reported by `/v1/consensus/leader`). */
export const LeaderSeedInput = struct('ConsensusLeaderSeedInput', { chainId: string(64), height: varuint });

function u32At(seed: Uint8Array, counter: number): number {
  const input = new Uint8Array(seed.length + 4);
  input.set(seed);
  new DataView(input.buffer).setUint32(seed.length, counter);
  const d = blake2b256(input);
  return new DataView(d.buffer, d.byteOffset).getUint32(0);
}

/** The PRF seed of a height: the ledger hash of (chain id, height) in the codec. */
export function planSeed(chainId: string, height: number): Uint8Array {
  assert(Number.isSafeInteger(height) && height >= 0, `plan seed of height ${height}`);
  return hash(encode(LeaderSeedInput, { chainId, height }));
}

/** The shuffled roster indexes of `height` (Fisher–Yates driven by the PRF). */
export function planOf(chainId: string, height: number, size: number): number[] {
  const seed = planSeed(chainId, height);
  const plan = Array.from({ length: size }, (_, i) => i);
  for (let i = size - 1; i > 0; i--) {
    const j = u32At(seed, i) % (i + 1);
    const t = plan[i]!;
    plan[i] = plan[j]!;
    plan[j] = t;
  }
  // A permutation: every roster index leads exactly once per `size` views.
  const seen = new Uint8Array(size);
  for (const i of plan) seen[i]!++;
  assert(
    seen.every((n) => n === 1),
    `the plan of height ${height} is not a permutation of ${size}`,
  );
  return plan;
}

export class Plan {
  private readonly plan: number[];
  constructor(
    chainId: string,
    readonly height: number,
    readonly size: number,
  ) {
    assert(Number.isSafeInteger(size) && size >= 1, `a plan over ${size} validators`);
    this.plan = planOf(chainId, height, size);
  }

  /** Roster index of the leader of `view`. */
  leader(view: number): number {
    const leader = this.plan[view % this.size];
    // Views come decoded (non-negative integers) or from this peer's own state.
    assert(leader !== undefined, `no leader for view ${view} of ${this.size} slots`);
    return leader;
  }

  /** Roster indexes collecting the votes of `view`: `k` slots from the leader's on (the leader first). */
  collectors(view: number, k: number): number[] {
    assert(Number.isSafeInteger(k) && k >= 1, `${k} collectors per view`);
    const count = Math.min(this.size, Math.max(1, k));
    const out: number[] = [];
    for (let s = 0; s < count; s++) out.push(this.plan[(view + s) % this.size]!);
    return out;
  }
}
