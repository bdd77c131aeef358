// Relay manifest checks (docs/conference.md §Relays), shared by CreateConference and
// SetConferenceRelayManifest. Structure first, then expiry, then each hop in order.

import { type ExecContext, type Fail, fail } from '../../state/exec-context.js';
import { bytesEqual } from '../../util/hex.js';
import { HOP_WEIGHT_MAX, MANIFEST_HOPS_MAX, MANIFEST_HOPS_MIN, type RelayManifest } from './model.js';

function structureProblem(m: RelayManifest): string | undefined {
  if (m.hops.length < MANIFEST_HOPS_MIN || m.hops.length > MANIFEST_HOPS_MAX)
    return `a manifest has ${MANIFEST_HOPS_MIN}..${MANIFEST_HOPS_MAX} hops, not ${m.hops.length}`;
  const seen = new Set<string>();
  for (const h of m.hops) {
    if (h.weight < 1 || h.weight > HOP_WEIGHT_MAX) return `hop ${h.relay} weight not in 1..${HOP_WEIGHT_MAX}`;
    if (seen.has(h.relay)) return `relay ${h.relay} appears twice`;
    seen.add(h.relay);
  }
  return undefined;
}

/**
 * conference_manifest_invalid (hop count, weights, duplicates), conference_manifest_expired (expiry at
 * or before the block time), then per hop: conference_relay_not_found, conference_relay_key_mismatch,
 * conference_relay_unavailable (its last health report said unavailable).
 */
export function checkManifest(x: ExecContext, m: RelayManifest): Fail | undefined {
  const problem = structureProblem(m);
  if (problem !== undefined) return fail('conference_manifest_invalid', problem);
  if (m.expiresAtMs <= BigInt(x.block.blockTimeMs))
    return fail('conference_manifest_expired', `the manifest expired at ${m.expiresAtMs}`);
  for (const h of m.hops) {
    const relay = x.t.conferenceRelay.get(h.relay);
    if (relay === undefined) return fail('conference_relay_not_found', `no relay ${h.relay}`);
    if (!bytesEqual(relay.publicKey, h.publicKey))
      return fail('conference_relay_key_mismatch', `hop ${h.relay} key differs from the registered key`);
    if (relay.health?.available === false)
      return fail('conference_relay_unavailable', `relay ${h.relay} reported itself unavailable`);
  }
  return undefined;
}

export function emitManifest(x: ExecContext, call: string, m: RelayManifest): void {
  x.emit({
    kind: 'ConferenceRelayManifestUpdated',
    call,
    relays: m.hops.map((h) => h.relay),
    expiresAtMs: m.expiresAtMs,
  });
}
