// The conference module's reads of the committed world state (its tables, declared in wire.ts): deep
// copies, so no caller can reach a row the state still holds.

import { deepCopy } from '../../state/copy.js';
import type { WorldState } from '../../state/world-state.js';
import type { ConferenceCall, ConferenceRelay } from './model.js';

/** A call by its id `<domain>:<call name>`. */
export function getCall(state: WorldState, id: string): ConferenceCall | undefined {
  const v = state.tables.conferenceCall.get(id);
  return v === undefined ? undefined : deepCopy(v);
}

/** Every call, by id. */
export function listCalls(state: WorldState): ConferenceCall[] {
  const t = state.tables.conferenceCall;
  return t.sortedIds().map((id) => deepCopy(t.get(id)!));
}

/** The calls of one domain, by id. */
export function callsInDomain(state: WorldState, domain: string): ConferenceCall[] {
  const t = state.tables.conferenceCall;
  return state.linkedIds('conferenceCall', 'callsByDomain', domain).map((id) => deepCopy(t.get(id)!));
}

/** A registered relay by its id. */
export function getRelay(state: WorldState, id: string): ConferenceRelay | undefined {
  const v = state.tables.conferenceRelay.get(id);
  return v === undefined ? undefined : deepCopy(v);
}

/** Every registered relay, by id. */
export function listRelays(state: WorldState): ConferenceRelay[] {
  const t = state.tables.conferenceRelay;
  return t.sortedIds().map((id) => deepCopy(t.get(id)!));
}
