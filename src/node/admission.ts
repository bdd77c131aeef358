// Membership drives the transport: the peers a node's PeerNetwork admits are its configured
// `network.peers` (the bootstrap list and the observer allow-list) plus every peer registered on chain
// (RegisterPeer) and active at the next height. A peer registered in block h is admitted (and dialed at
// its registered address) once block h is committed, the height from which it is active; a peer
// unregistered in block h is dropped then, unless the configuration lists it.

import { isActiveAt, type PeerSource } from '../consensus/membership.js';
import { isKeyTextError, publicKeyFromText, publicKeyToText } from '../crypto/keys.js';
import { parseHostPort, parsePeerEntry } from '../p2p/address.js';

/** The canonical peer id of a key text, or undefined when it is not an Ed25519 key. */
function canonicalId(text: string): string | undefined {
  const k = publicKeyFromText(text);
  return isKeyTextError(k) || k.algorithm !== 'ed25519' ? undefined : publicKeyToText(k);
}

/**
 * The `network.peers`-form list the transport admits: the configured entries as given (a configured
 * address wins over a registered one), then every registered peer the configuration does not list,
 * as `<id>@<registered address>`, or accept-only `<id>` when that address is not `host:port`. The own
 * id and registered ids that are not Ed25519 keys are left out. Sorted by peer id after the configured
 * entries, so the result never depends on the order the state lists peers in.
 */
export function admittedPeers(
  configured: readonly string[],
  registered: readonly { id: string; address: string }[],
  selfId: string,
): string[] {
  const listed = new Set<string>();
  for (const [i, text] of configured.entries()) listed.add(parsePeerEntry(text, i).peerId);
  const extra = new Map<string, string>();
  for (const p of registered) {
    const id = canonicalId(p.id);
    if (id === undefined || id === selfId || listed.has(id)) continue;
    const at = parseHostPort(p.address);
    extra.set(id, at !== undefined && at.port > 0 ? `${id}@${p.address}` : id);
  }
  const ids = [...extra.keys()].sort();
  return [...configured, ...ids.map((id) => extra.get(id)!)];
}

/** Registered peers active at `height` (consensus/membership.ts), with their addresses. */
export function activePeersAt(state: PeerSource, height: number): { id: string; address: string }[] {
  return state
    .listPeers()
    .filter((p) => isActiveAt(p, height))
    .map((p) => ({ id: p.id, address: p.address }));
}

/**
 * Keeps `network`'s peer list equal to `admittedPeers` of the committed state: now, and after every
 * commit (`onCommit`). `setPeers` is called only when the list changes.
 */
export function followMembership(a: {
  network: { setPeers(peers: readonly string[]): void; readonly selfId: string };
  configured: readonly string[];
  state: PeerSource;
  height: () => number;
  onCommit: (listener: () => void) => void;
}): void {
  let last = '';
  const update = () => {
    const list = admittedPeers(a.configured, activePeersAt(a.state, a.height() + 1), a.network.selfId);
    const key = list.join('\n');
    if (key === last) return;
    last = key;
    a.network.setPeers(list);
  };
  update();
  a.onCommit(update);
}
