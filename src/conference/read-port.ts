// What the conference routes read from the node (style.md "Layout": `conference/` sees small
// interfaces, never concrete classes). `node/conference-port.ts` adapts the committed world state to it.

import type { ConferenceCall, ConferenceRelay } from '../model/conference.js';

/** Committed conference calls and relays; every answer is a snapshot the caller must not change. */
export interface ConferenceReadPort {
  call(id: string): ConferenceCall | undefined;
  /** Call ids in ascending order. */
  callIds(): readonly string[];
  relay(id: string): ConferenceRelay | undefined;
  /** Relay ids in ascending order. */
  relayIds(): readonly string[];
}
