// The network adversary of the planted-bug hunt (an asynchronous network may do all of this): commit
// certificates reach only one honest "victim", the victim's tips and synced blocks (with crashes: everyone's) are dropped (so the others cannot
// sync the block it committed), and, for the lost-lock bug, the other honest peers crash and restart
// once a commit certificate exists. Safety must then rest on the locks alone, which is what the
// planted bugs break.

import { DEFAULT_DECODE_LIMITS } from '../codec/limits.js';
import { decodePeerMessage } from '../consensus/bft/messages.js';
import type { World } from './world.js';

export function installAdversary(w: World, crashOthers: boolean): void {
  const honest = w.honest().filter((x) => x.index < w.o.n);
  const victim = honest[0];
  if (victim === undefined) return;
  const struck = new Set<number>();
  w.net.adversary = (from, to, bytes) => {
    const m = decodePeerMessage(bytes, DEFAULT_DECODE_LIMITS);
    if (m === undefined) return false;
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
}
