// Adapts the committed world state to the conference routes' read port (read-port.ts).

import type { WorldState } from '../../state/world-state.js';
import type { ConferenceReadPort } from './read-port.js';

export function conferenceReadPort(state: WorldState): ConferenceReadPort {
  return {
    call: (id) => state.getCall(id),
    calls: () => state.listCalls(),
    callsInDomain: (domain) => state.callsInDomain(domain),
    relay: (id) => state.getRelay(id),
    relays: () => state.listRelays(),
    accountExists: (id) => state.peek('account', id) !== undefined,
    accountName: (text) => {
      const name = state.idName('account', text);
      return name === undefined ? undefined : { field: name.field, id: name.id(0) };
    },
    shieldedPoolPage: (offset, limit) => state.shieldedPoolPage(offset, limit),
    nullifierSpent: (kind, nullifier) => state.isNullifierSpent(kind, nullifier),
  };
}
