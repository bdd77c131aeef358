// Which bus events the relay event stream carries, and its filters (docs/conference.md "Routes and
// CLI": an SSE event stream filterable by domain, relay and kind).
//   kind     registered (ConferenceRelayRegistered), manifest (ConferenceRelayManifestUpdated),
//            health (ConferenceRelayHealthUpdated); absent: all three
//   relay    the relay the event names; a manifest update matches each relay of its hops
//   domain   a manifest update: the call's domain; a registration: the operator's domain; a health
//            report: the domain of the relay's operator (relays never change operator)
// Every other event of the bus is left out.

import type { Event } from '../../model/events.js';
import type { ConferenceReadPort } from './read-port.js';

export const RELAY_EVENT_KINDS = ['registered', 'manifest', 'health'] as const;
export type RelayEventKind = (typeof RELAY_EVENT_KINDS)[number];

export interface RelayEventFilter {
  kind?: RelayEventKind;
  relay?: string;
  domain?: string;
}

interface RelayEventFacts {
  kind: RelayEventKind;
  relays: readonly string[];
  domain: () => string | undefined;
}

const afterLastAt = (account: string) => account.slice(account.lastIndexOf('@') + 1);
const beforeLastColon = (call: string) => call.slice(0, call.lastIndexOf(':'));

/** What the filters look at in a relay event; undefined for every other event. */
function factsOf(e: Event, reader: ConferenceReadPort): RelayEventFacts | undefined {
  if (e.kind !== 'Data') return undefined;
  const d = e.data;
  switch (d.kind) {
    case 'ConferenceRelayRegistered':
      return { kind: 'registered', relays: [d.relay], domain: () => afterLastAt(d.operator) };
    case 'ConferenceRelayManifestUpdated':
      return { kind: 'manifest', relays: d.relays, domain: () => beforeLastColon(d.call) };
    case 'ConferenceRelayHealthUpdated': {
      const relay = d.relay;
      return {
        kind: 'health',
        relays: [relay],
        domain: () => {
          const operator = reader.relay(relay)?.operator;
          return operator === undefined ? undefined : afterLastAt(operator);
        },
      };
    }
    default:
      return undefined;
  }
}

/** The predicate of the relay event stream for `filter`. */
export function relayEventMatcher(
  filter: RelayEventFilter,
  reader: ConferenceReadPort,
): (e: Event) => boolean {
  return (e) => {
    const f = factsOf(e, reader);
    if (f === undefined) return false;
    if (filter.kind !== undefined && f.kind !== filter.kind) return false;
    if (filter.relay !== undefined && !f.relays.includes(filter.relay)) return false;
    return filter.domain === undefined || f.domain() === filter.domain;
  };
}
