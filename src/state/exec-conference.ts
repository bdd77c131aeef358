// Conference call and relay instructions (docs/conference.md §Instructions).

import type { Handler } from './exec-context.js';
import { fail } from './exec-context.js';

const noCall = () => fail('conference_not_found');
const noRelay = () => fail('conference_relay_not_found');

export const createConference: Handler<'CreateConference'> = () => fail('domain_not_found');
export const joinConference: Handler<'JoinConference'> = noCall;
export const leaveConference: Handler<'LeaveConference'> = noCall;
export const recordConferenceUsage: Handler<'RecordConferenceUsage'> = noCall;
export const endConference: Handler<'EndConference'> = noCall;
export const setConferenceRelayManifest: Handler<'SetConferenceRelayManifest'> = noCall;
export const registerConferenceRelay: Handler<'RegisterConferenceRelay'> = () =>
  fail('conference_invalid_relay');
export const reportConferenceRelayHealth: Handler<'ReportConferenceRelayHealth'> = noRelay;
