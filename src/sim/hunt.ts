// The planted-bug hunt's run options, derived from the seed alone (its own PRNG stream, so the cluster's
// draws in World are those of any run of that seed): n (7 with two byzantine validators), the byzantine
// kinds, collectors_k in 1..n, and the adversary's mix. The hunt tests and `npm run sim -- --seed S --bug B`
// both call `huntOptions`, so a CLI replay is the hunt's run exactly.

import type { PlantedBug } from '../consensus/bft/types.js';
import type { AdversaryMix } from './adversary.js';
import { type ByzantineKind, HUNT_KINDS } from './byzantine.js';
import { Prng } from './prng.js';
import type { RunOptions } from './run.js';

/** Mixed into the seed so the hunt's draws are independent of the world's. */
const HUNT_STREAM = 0x4b1d_c0de;

export interface HuntMix extends AdversaryMix {
  /** One byzantine validator per entry, of that kind. */
  byzantine: readonly ByzantineKind[];
  /** Byzantine peers also send votes and NEW_VIEWs at view + FAR_VIEW. */
  farView: boolean;
}

export function huntOptions(seed: number, bug?: PlantedBug): RunOptions {
  const r = new Prng((seed ^ HUNT_STREAM) >>> 0);
  const n = r.chance(0.5) ? 4 : 7;
  const byzantine = Array.from({ length: n === 7 ? 2 : 1 }, () => r.pick(HUNT_KINDS));
  const collectorsK = r.int(1, n);
  const victimCommits = r.chance(0.5);
  const crashOthers = victimCommits && r.chance(0.5);
  const voteDrops = r.chance(0.6)
    ? {
        phase: r.pick(['Prepare', 'Commit'] as const),
        to: Array.from({ length: n }, (_, i) => i).filter(() => r.chance(0.5)),
        p: 0.3 + 0.7 * r.float(),
      }
    : undefined;
  const lockCrashP = r.chance(0.5) ? r.float() * 0.5 : 0;
  const farView = r.chance(0.5);
  return {
    n,
    collectorsK,
    aggressive: true,
    hunt: {
      byzantine,
      victimCommits,
      crashOthers,
      ...(voteDrops === undefined ? {} : { voteDrops }),
      lockCrashP,
      farView,
    },
    ...(bug === undefined ? {} : { plantedBug: bug }),
  };
}

/** One line naming what a hunt seed drew (printed by the CLI). */
export function describeHunt(o: RunOptions): string {
  const h = o.hunt;
  if (h === undefined) return 'not a hunt run';
  const drops =
    h.voteDrops === undefined
      ? 'none'
      : `${h.voteDrops.phase} to [${h.voteDrops.to.join(',')}] p=${h.voteDrops.p.toFixed(2)}`;
  return `n=${o.n} collectors_k=${o.collectorsK} byzantine=[${h.byzantine.join(',')}] victim_commits=${h.victimCommits} crash_others=${h.crashOthers} vote_drops=${drops} lock_crash_p=${h.lockCrashP.toFixed(2)} far_view=${h.farView} bug=${o.plantedBug ?? 'none'}`;
}

/**
 * The first seed of the hunt (seeds from 0) that finds each planted bug, as measured (planted-bugs.test.ts
 * asserts each is found at that seed; test/reliability/sim.test.ts runs the hunt and prints the figures).
 */
export const HUNT_FIRST_FOUND: Record<PlantedBug, number> = {
  'prepare-ignores-lock': 8,
  'forget-lock-on-restart': 0,
  'stale-justify-unlock': 325,
};

/** A safety or rule failure (the hunt's adversary may leave liveness unmet: that is not a finding). */
export function isFinding(failure: string | undefined): boolean {
  return failure !== undefined && !failure.startsWith('liveness');
}
