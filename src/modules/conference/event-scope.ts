// What the conference module's data events are about, for the event filters' fields
// (gateway/event-scope.ts): a call event is about its call and the call's domain, a relay event about
// its relay. A call id that does not parse gives the call alone.

import type { EventScope, ModuleEventScope } from '../../gateway/event-scope.js';
import { parseCallId } from './model.js';

function callScope(call: string): EventScope {
  const domain = parseCallId(call)?.domain;
  return domain === undefined ? { call } : { domain, call };
}

export const conferenceEventScope: ModuleEventScope = (d) => {
  switch (d.kind) {
    case 'ConferenceRosterSummary':
    case 'ConferenceRelayManifestUpdated':
    case 'ConferenceUsageSummary':
    case 'ConferenceEnded':
      return callScope(d.call);
    case 'ConferenceRelayHealthUpdated':
    case 'ConferenceRelayRegistered':
      return { relay: d.relay };
    default:
      return undefined;
  }
};
