// Membership (docs/data-model.md "Peers"): the validator set of a height and the
// consensus-key lifecycle, both read from the peer rows of the committed state (state/tables.ts `peer`).
// A key registered in block h is active from h + 1; genesis validators are registered at height 0, so
// they are active from block 1; unregistering in block h disables the key from h on. Peer rows are never
// deleted, so the whole history can be answered from the state alone.

import type { Peer } from '../model/entities.js';
import type { WorldState } from '../state/world-state.js';
import { assert } from '../util/assert.js';
import { bytesEqual } from '../util/hex.js';
import { ValidatorSet } from './validator-set.js';

/** The peers of the state (only `listPeers` is read, so tests and ports can pass a smaller object). */
export type PeerSource = Pick<WorldState, 'listPeers'>;

/** One consensus key's history (the key-lifecycle routes). */
export interface KeyLifecycleEntry {
  peerId: string;
  blsKey: string;
  registeredAt: number;
  activeFrom: number;
  /** The height from which the key no longer votes; undefined while it is live. */
  disabledAt: number | undefined;
}

/** True when `peer` is in the validator set of `height`. */
export function isActiveAt(peer: Peer, height: number): boolean {
  // The peer table's own rows: a key is active from after the block that registered it.
  assert(
    peer.activeFrom > peer.registeredAt,
    `peer ${peer.id}: active from ${peer.activeFrom}, registered at ${peer.registeredAt}`,
  );
  return peer.activeFrom <= height && (peer.disabledAt === undefined || peer.disabledAt > height);
}

/**
 * The validator set of `height` (sorted by peer id, ValidatorSet's canonical order): peers with
 * `activeFrom <= height` and not disabled at or before `height`. Empty when no peer qualifies (a state
 * without peer rows, or a height before genesis).
 */
export function validatorSetAt(state: PeerSource, height: number): ValidatorSet {
  assert(Number.isSafeInteger(height) && height >= 0, `validatorSetAt: bad height ${height}`);
  const validators = state
    .listPeers()
    .filter((p) => isActiveAt(p, height))
    .map((p) => ({ peer: p.id, blsKey: p.blsKey }));
  return new ValidatorSet(validators);
}

/** Every registered peer's key with its lifecycle, live and disabled, sorted by peer id. */
export function keyLifecycle(state: PeerSource): KeyLifecycleEntry[] {
  return state.listPeers().map((p) => ({
    peerId: p.id,
    blsKey: p.blsKey,
    registeredAt: p.registeredAt,
    activeFrom: p.activeFrom,
    disabledAt: p.disabledAt,
  }));
}

/**
 * The validator sets of heights 1..`upTo`, each with the first height it applies to, rebuilt from the
 * peer rows alone (rows are never deleted, so the committed state holds the whole history). A set only
 * changes where some key becomes active or is disabled.
 */
export function rosterHistory(state: PeerSource, upTo: number): { height: number; set: ValidatorSet }[] {
  assert(Number.isSafeInteger(upTo) && upTo >= 0, `rosterHistory: bad height ${upTo}`);
  const changes = new Set<number>([1]);
  for (const p of state.listPeers()) {
    if (p.activeFrom >= 1 && p.activeFrom <= upTo) changes.add(p.activeFrom);
    if (p.disabledAt !== undefined && p.disabledAt >= 1 && p.disabledAt <= upTo) changes.add(p.disabledAt);
  }
  const out: { height: number; set: ValidatorSet }[] = [];
  for (const height of [...changes].sort((a, b) => a - b)) {
    const set = validatorSetAt(state, height);
    const last = out[out.length - 1];
    if (set.size > 0 && (last === undefined || !bytesEqual(last.set.hash, set.hash)))
      out.push({ height, set });
  }
  return out;
}
