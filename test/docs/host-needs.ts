// What this host offers the doc examples marked `run needs="…"` (extract.ts NEEDS), and the namespaces
// such a page makes. A page's network namespaces are named with a prefix of its own ($NS, which
// docs/operations.md "Three machines, step by step" reads): `tdoc<pid>x<random>-`, never `thost-`
// (npm run test:hosts deletes every `thost-*` namespace) nor the page's default `demo-`.

import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { type Decision, NEEDS, type Need } from './extract.js';

/** Why the host cannot give `need`, or undefined when it can. */
export function unmet(need: Need): string | undefined {
  if (process.platform !== 'linux') return 'network namespaces need Linux';
  if (process.getuid?.() !== 0) return 'not root';
  const probe = `tdoc${process.pid}probe`;
  const add = spawnSync('ip', ['netns', 'add', probe], { encoding: 'utf8' });
  if (add.error !== undefined || add.status !== 0)
    return `ip netns add fails here: ${add.error?.message ?? add.stderr.trim()}`;
  spawnSync('ip', ['netns', 'del', probe]);
  return need === 'netns' ? undefined : `unknown need ${need}`;
}

const cache = new Map<Need, string | undefined>();

/** The block's decision on this host: a `run needs` block whose need is unmet becomes a skip. */
export function decisionHere(d: Decision): Decision {
  if (d.kind !== 'run' || d.needs === undefined) return d;
  if (!cache.has(d.needs)) cache.set(d.needs, unmet(d.needs));
  const why = cache.get(d.needs);
  return why === undefined ? d : { kind: 'skip', reason: `needs ${NEEDS[d.needs]}: ${why}` };
}

/** A namespace prefix no other run uses: the page's $NS. */
export function namespacePrefix(): string {
  return `tdoc${process.pid}x${randomBytes(3).toString('hex')}-`;
}

/** Kills every process in the namespaces named `prefix*` and deletes them (what a page left). */
export function removeNamespaces(prefix: string): string[] {
  const list = spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' });
  if (list.status !== 0) return [];
  const ours = list.stdout
    .split('\n')
    .map((l) => l.split(' ')[0] ?? '')
    .filter((n) => n.startsWith(prefix));
  for (const ns of ours) {
    const pids = spawnSync('ip', ['netns', 'pids', ns], { encoding: 'utf8' }).stdout ?? '';
    for (const pid of pids.split('\n').filter(Boolean))
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // already gone
      }
    spawnSync('ip', ['netns', 'del', ns]);
  }
  return ours;
}
