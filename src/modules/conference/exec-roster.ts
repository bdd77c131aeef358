// JoinConference, LeaveConference (docs/conference.md §Instructions). Transparent calls keep the sorted
// account ids of the participants; private calls keep only a count, the proof steps are in
// exec-private.ts.

import { type ExecContext, type Fail, fail, type Handler } from '../../state/exec-context.js';
import {
  activeCount,
  emitRoster,
  isFail,
  loadCall,
  putCall,
  requireActive,
  requirePrivacy,
} from './exec-common.js';
import { privateJoin, privateLeave } from './exec-private.js';
import type { ConferenceCall } from './model.js';

/** The call, Active, and whether it is private: conference_not_found, conference_ended. */
function activeCall(x: ExecContext, id: string): ConferenceCall | Fail {
  const call = loadCall(x, id);
  if (isFail(call)) return call;
  return requireActive(call) ?? call;
}

function withParticipants(call: ConferenceCall, participants: string[]): ConferenceCall {
  return { ...call, roster: { kind: 'Transparent', participants } };
}

function withActive(call: ConferenceCall, delta: number): ConferenceCall {
  const r = call.roster;
  return r.kind === 'ZkRosterV1' ? { ...call, roster: { ...r, active: r.active + delta } } : call;
}

export const joinConference: Handler<'JoinConference'> = (x, ins) => {
  const call = activeCall(x, ins.call);
  if (isFail(call)) return call;
  const priv = call.roster.kind === 'ZkRosterV1';
  const mismatch =
    requirePrivacy(priv, ins.private !== undefined, 'a roster proof') ??
    (priv ? undefined : requirePrivacy(false, ins.fee !== undefined, 'fee')) ??
    (priv && ins.participant !== undefined
      ? fail('conference_privacy_mismatch', 'a private call names no participant')
      : undefined);
  if (mismatch) return mismatch;
  const participant = ins.participant ?? x.authority;
  if (participant !== x.authority)
    return fail('conference_not_self', 'a participant joins only itself (participant = authority)');
  if (call.roster.kind === 'Transparent' && call.roster.participants.includes(participant))
    return fail('conference_already_joined', `${participant} is already in ${call.id}`);
  if (activeCount(call) >= call.maxParticipants)
    return fail('conference_roster_full', `${call.id} holds ${call.maxParticipants} participants`);
  if (call.roster.kind === 'ZkRosterV1') {
    const denied = privateJoin(x, call, ins);
    if (denied) return denied;
    const next = withActive(call, 1);
    putCall(x, next);
    emitRoster(x, next, 'Joined');
    return undefined;
  }
  const next = withParticipants(call, [...call.roster.participants, participant].sort());
  putCall(x, next);
  emitRoster(x, next, 'Joined', participant);
  return undefined;
};

export const leaveConference: Handler<'LeaveConference'> = (x, ins) => {
  const call = activeCall(x, ins.call);
  if (isFail(call)) return call;
  const priv = call.roster.kind === 'ZkRosterV1';
  const mismatch =
    requirePrivacy(priv, ins.private !== undefined, 'a roster proof') ??
    (priv && ins.participant !== undefined
      ? fail('conference_privacy_mismatch', 'a private call names no participant')
      : undefined);
  if (mismatch) return mismatch;
  if (call.roster.kind === 'ZkRosterV1') {
    if (call.roster.active === 0) return fail('conference_not_participant', `${call.id} has no participants`);
    const denied = privateLeave(x, call, ins);
    if (denied) return denied;
    const next = withActive(call, -1);
    putCall(x, next);
    emitRoster(x, next, 'Left');
    return undefined;
  }
  const participant = ins.participant ?? x.authority;
  if (participant !== x.authority && x.authority !== call.host)
    return fail('conference_not_self', 'only the participant itself or the host removes a participant');
  if (!call.roster.participants.includes(participant))
    return fail('conference_not_participant', `${participant} is not in ${call.id}`);
  const next = withParticipants(
    call,
    call.roster.participants.filter((p) => p !== participant),
  );
  putCall(x, next);
  emitRoster(x, next, 'Left', participant);
  return undefined;
};
