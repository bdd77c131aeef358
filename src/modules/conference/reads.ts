// Adapts the committed world state to the conference routes' read port (read-port.ts).

import type { WorldState } from '../../state/world-state.js';
import type { ConferenceReadPort } from './read-port.js';
import { callsInDomain, getCall, getRelay, listCalls, listRelays } from './rows.js';

export function conferenceReadPort(state: WorldState): ConferenceReadPort {
  return {
    call: (id) => getCall(state, id),
    calls: () => listCalls(state),
    callsInDomain: (domain) => callsInDomain(state, domain),
    relay: (id) => getRelay(state, id),
    relays: () => listRelays(state),
    accountExists: (id) => state.peek('account', id) !== undefined,
    accountName: (text) => {
      const name = state.idName('account', text);
      return name === undefined ? undefined : { field: name.field, id: name.id(0) };
    },
    shieldedPoolPage: (offset, limit) => state.shieldedPoolPage(offset, limit),
    nullifierSpent: (kind, nullifier) => state.isNullifierSpent(kind, nullifier),
  };
}
