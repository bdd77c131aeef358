// Adapts the committed world state to the conference routes' read port (conference/read-port.ts).

import type { ConferenceReadPort } from '../conference/read-port.js';
import type { WorldState } from '../state/world-state.js';

export function conferenceReadPort(state: WorldState): ConferenceReadPort {
  return {
    call: (id) => state.getCall(id),
    calls: () => state.listCalls(),
    callsInDomain: (domain) => state.callsInDomain(domain),
    relay: (id) => state.getRelay(id),
    relays: () => state.listRelays(),
    accountExists: (id) => state.peek('account', id) !== undefined,
    accountAlias: (alias) => state.idName('account', alias)?.id(0),
    shieldedPoolPage: (offset, limit) => state.shieldedPoolPage(offset, limit),
  };
}
