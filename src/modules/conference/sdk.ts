// The conference module's SDK surface (docs/conference.md): the instruction builders (spread into the
// SDK's `instructions`), the signal envelope functions, the reader and signalling methods of
// ToranaClient (installed here, sdk-client.ts), and their types. src/sdk/index.ts re-exports these
// names; loading this file installs the client methods.

import { installClientMethods } from '../../sdk/client.js';
import { CONFERENCE_CLIENT_METHODS, type ConferenceClientMethods } from './sdk-client.js';
import { openSignal, sealSignal } from './sdk-signals.js';

export type {
  CreateConferenceOptions,
  JoinConferenceOptions,
  RelayHopLike,
  RelayManifestLike,
  UsageOptions,
} from './sdk-instructions.js';
export { conferenceInstructions } from './sdk-instructions.js';
export type {
  CallDetail,
  CallListOptions,
  CallSummary,
  PageOptions,
  RelayEventOptions,
  RelayHealthSummary,
  RelayItem,
  RelayListOptions,
  ShieldedPool,
  SignedOption,
} from './sdk-reads.js';
export {
  openSignal,
  type Signal,
  type SignalContext,
  type SignalKeyPair,
  sealSignal,
} from './sdk-signals.js';

declare module '../../sdk/client.js' {
  interface ToranaClient extends ConferenceClientMethods {}
}

installClientMethods(CONFERENCE_CLIENT_METHODS);

/** The module's SDK functions by name (its descriptor lists them; src/sdk/index.ts exports each). */
export const CONFERENCE_SDK = { openSignal, sealSignal } as const;
