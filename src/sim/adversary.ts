// The network adversary of the planted-bug hunt (an asynchronous network may do all of this), each part
// drawn per seed (hunt.ts):
// - victim commits: commit certificates reach only one honest "victim", the victim's tips and synced
//   blocks (with crashes: everyone's) are dropped, so the others cannot sync the block it committed;
//   with crashes, the other honest peers crash and restart once a commit certificate exists;
// - vote drops: during the fault phase, votes of one phase to some recipients are dropped with a chance;
// - lock crashes: an honest peer about to persist a lock newer than its durable one is crashed before
//   the record is durable (between locking and persisting), and restarted.
// Safety must then rest on the locks alone, which is what the planted bugs break.

import { DEFAULT_DECODE_LIMITS } from '../codec/limits.js';
import { decodePeerMessage } from '../consensus/bft/messages.js';
import type { World } from './world.js';

export interface AdversaryMix {
  victimCommits: boolean;
  crashOthers: boolean;
  /** Votes of `phase` to the validators at `to` (roster order) are dropped with chance `p`. */
  voteDrops?: { phase: 'Prepare' | 'Commit'; to: readonly number[]; p: number };
  /** Chance an honest peer is crashed as it starts to persist a newer lock. */
  lockCrashP: number;
}

export function installAdversary(w: World, mix: AdversaryMix, faultMs: number): void {
  const honest = w.honest().filter((x) => x.index < w.o.n);
  const victim = honest[0];
  if (victim === undefined) return;
  const struck = new Set<number>();
  const drops = mix.voteDrops;
  const dropTo = new Set((drops?.to ?? []).map((i) => w.nodes[i]!.peer));
  w.net.adversary = (from, to, bytes) => {
    const m = decodePeerMessage(bytes, DEFAULT_DECODE_LIMITS);
    if (m === undefined) return false;
    if (m.kind === 'Vote' && drops !== undefined && m.phase.kind === drops.phase && dropTo.has(to))
      return w.clock.elapsedMs < faultMs && w.prng.chance(drops.p);
    if (!mix.victimCommits) return false;
    const crashOthers = mix.crashOthers;
    if (m.kind === 'Tip' || m.kind === 'SyncBlocks') return crashOthers || from === victim.peer;
    if (m.kind !== 'QcMsg' || m.qc.phase.kind !== 'Commit') return false;
    if (crashOthers && !struck.has(m.qc.height)) {
      struck.add(m.qc.height);
      for (const node of honest.slice(1)) {
        w.clock.setTimeout(
          () => {
            w.count('crash');
            w.crash(node);
            w.clock.setTimeout(() => void w.boot(node), 30);
          },
          w.prng.int(5, 60),
        );
      }
    }
    return to !== victim.peer;
  };
  if (mix.lockCrashP > 0)
    w.onLockSave = (node) => {
      if (w.clock.elapsedMs >= faultMs || !w.prng.chance(mix.lockCrashP)) return;
      // Queued now, so it runs before the fsync that would make the record durable.
      w.clock.setTimeout(() => {
        if (node.p === undefined) return;
        w.count('lock_crash');
        w.log(`${node.name} crashed between locking and persisting`);
        w.crash(node);
        w.clock.setTimeout(() => void w.boot(node), w.prng.int(30, 300));
      }, 0);
    };
}
