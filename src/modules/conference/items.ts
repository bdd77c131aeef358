// The view values of the conference routes (views.ts) from the ledger's stored entities
// (model/conference.ts).

import {
  type ConferenceCall,
  type ConferenceRelay,
  PRIVACY_MODE_JSON,
  parseCallId,
  ROOM_POLICY_JSON,
} from './model.js';
import type { CallDetail, CallSummary, RelayHealthItem, RelayItem, RelayStatus } from './views.js';

/** `{[key]: value}`, or nothing when the value is absent (optional view fields are left out, never undefined). */
function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

export function relayStatus(r: ConferenceRelay): RelayStatus {
  if (r.health === undefined) return 'unknown';
  return r.health.available ? 'available' : 'unavailable';
}

/** The domain part of a stored (hence well-formed) account id: the text after its last '@'. */
function domainOf(account: string): string {
  return account.slice(account.lastIndexOf('@') + 1);
}

export function relayItem(r: ConferenceRelay): RelayItem {
  return {
    id: r.id,
    operator: r.operator,
    domain: domainOf(r.operator),
    publicKey: r.publicKey,
    endpoint: r.endpoint,
    region: r.region,
    status: relayStatus(r),
    ...optional('health', r.health),
    registeredHeight: r.registeredHeight,
  };
}

export function relayHealthItem(r: ConferenceRelay): RelayHealthItem {
  return { relay: r.id, status: relayStatus(r), ...optional('health', r.health) };
}

function activeParticipants(c: ConferenceCall): number {
  return c.roster.kind === 'Transparent' ? c.roster.participants.length : c.roster.active;
}

export function callSummary(c: ConferenceCall): CallSummary {
  const parts = parseCallId(c.id);
  return {
    id: c.id,
    domain: parts?.domain ?? '',
    name: parts?.name ?? '',
    host: c.host,
    title: c.title,
    policy: ROOM_POLICY_JSON[c.policy.kind],
    privacy: PRIVACY_MODE_JSON[c.privacy.kind],
    status: c.status.kind === 'Active' ? 'active' : 'ended',
    scheduledStartMs: c.scheduledStartMs,
    ...optional('scheduledEndMs', c.scheduledEndMs),
    maxParticipants: c.maxParticipants,
    activeParticipants: activeParticipants(c),
    gasRatePerMinute: c.gasRatePerMinute,
    billingAccount: c.billingAccount,
    relays: c.manifest?.hops.map((h) => h.relay) ?? [],
    usage: c.usage,
    createdHeight: c.createdHeight,
    createdAtMs: c.createdAtMs,
    ...optional('endedAtMs', c.endedAtMs),
  };
}

export function callDetail(c: ConferenceCall): CallDetail {
  const roster = c.roster;
  return {
    ...callSummary(c),
    description: c.description,
    metadata: c.metadata,
    ...optional('manifest', c.manifest),
    participants: roster.kind === 'Transparent' ? roster.participants : [],
    rosterCommitments: roster.kind === 'ZkRosterV1' ? roster.commitments : [],
    ...optional('rosterRoot', roster.kind === 'ZkRosterV1' ? roster.root : undefined),
    ...optional('endedHeight', c.endedHeight),
  };
}
