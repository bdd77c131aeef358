// The conference module's wire declarations (docs/conference.md): its instruction and event variants,
// rejection meanings, weights, stored row types and tables. Their tags, numbers and ids are in
// model/tags.ts; importing this file (src/modules/registry.ts does) declares them into the core's codecs
// and tables. A rejection's meaning is the message of a rejection made without one: committed results
// hold it, so it is never reworded.

import { option, seq } from '../../codec/compound.js';
import { bool, bytes, fixedBytes, string, u16, u32, u64 } from '../../codec/primitives.js';
import { AccountId } from '../../model/ids.js';
import type { Instruction } from '../../model/instructions.js';
import { MetadataCodec } from '../../model/metadata.js';
import { NumericCodec } from '../../model/numeric.js';
import { Field } from '../../model/proofs.js';
import { NoteSpendCodec } from '../../model/shielded.js';
import { GROTH16_VERIFY_WEIGHT, POOL_APPEND_WEIGHT, row, sized } from '../../model/weights.js';
import { declareModuleWire } from '../../state/module-wire.js';
import { type TableDef, tableDef } from '../../state/tables.js';
import { declareZkParameters } from '../../state/zk-parameters.js';
import {
  CallId,
  type ConferenceCall,
  ConferenceCallCodec,
  type ConferenceRelay,
  ConferenceRelayCodec,
  MAX_PARTICIPANTS_LIMIT,
  PrivacyModeCodec,
  parseCallId,
  RelayId,
  RelayManifestCodec,
  ROSTER_COMMITMENTS_MAX,
  RoomPolicyCodec,
  RosterChangeCodec,
  RosterProofCodec,
  X25519_KEY_BYTES,
} from './model.js';

/** The largest encrypted signalling answer a JoinConference may carry. */
export const ANSWER_BYTES_MAX = 16 * 1024;

const INSTRUCTIONS = {
  // Conference calls and relays (docs/conference.md). Privacy artefacts (rosterCommitments, private, fee)
  // are for ZkRosterV1 calls only; `participant` for transparent ones only.
  CreateConference: {
    call: CallId,
    policy: RoomPolicyCodec,
    privacy: PrivacyModeCodec,
    title: string(256),
    description: string(4096),
    scheduledStartMs: u64,
    scheduledEndMs: option(u64),
    maxParticipants: u32,
    gasRatePerMinute: NumericCodec,
    billingAccount: AccountId,
    metadata: MetadataCodec,
    manifest: option(RelayManifestCodec),
    rosterCommitments: seq(Field, ROSTER_COMMITMENTS_MAX),
    fee: option(NoteSpendCodec),
  },
  JoinConference: {
    call: CallId,
    participant: option(AccountId),
    answer: option(bytes(ANSWER_BYTES_MAX)),
    private: option(RosterProofCodec),
    fee: option(NoteSpendCodec),
  },
  LeaveConference: { call: CallId, participant: option(AccountId), private: option(RosterProofCodec) },
  RecordConferenceUsage: {
    call: CallId,
    participant: option(AccountId),
    segment: u32,
    durationMs: u64,
    billedGas: NumericCodec,
    private: option(RosterProofCodec),
  },
  EndConference: { call: CallId },
  SetConferenceRelayManifest: { call: CallId, manifest: RelayManifestCodec },
  RegisterConferenceRelay: {
    relay: RelayId,
    publicKey: fixedBytes(X25519_KEY_BYTES),
    endpoint: string(256),
    region: string(64),
  },
  ReportConferenceRelayHealth: { relay: RelayId, available: bool, latencyMs: u32, lossPermille: u16 },
};

const EVENTS = {
  // Conference calls (docs/conference.md §Instructions). Private calls never name participants.
  ConferenceRosterSummary: {
    call: CallId,
    change: RosterChangeCodec,
    privacy: PrivacyModeCodec,
    participant: option(AccountId),
    active: u32,
    maxParticipants: u32,
  },
  ConferenceRelayManifestUpdated: { call: CallId, relays: seq(RelayId, 16), expiresAtMs: u64 },
  ConferenceRelayHealthUpdated: {
    relay: RelayId,
    available: bool,
    latencyMs: u32,
    lossPermille: u16,
  },
  ConferenceUsageSummary: {
    call: CallId,
    segment: u32,
    durationMs: u64,
    billedGas: NumericCodec,
    totalDurationMs: u64,
    totalBilledGas: NumericCodec,
    payer: option(AccountId),
    payee: option(AccountId),
  },
  ConferenceEnded: { call: CallId, endedAtMs: u64 },
  ConferenceRelayRegistered: { relay: RelayId, operator: AccountId },
};

declare module '../../model/instructions.js' {
  interface InstructionVariants extends ConferenceInstructionVariants {}
}
declare module '../../model/events.js' {
  interface DataEventVariants extends ConferenceEventVariants {}
}
declare module '../../state/tables.js' {
  interface TableRows {
    conferenceCall: ConferenceCall;
    conferenceRelay: ConferenceRelay;
  }
  interface IndexNames {
    /** Conference calls by the domain of their id. */
    callsByDomain: unknown;
  }
}
type ConferenceInstructionVariants = typeof INSTRUCTIONS;
type ConferenceEventVariants = typeof EVENTS;

/** Load check of a call row: a consistent roster, status and end record (docs/conference.md). */
function checkCall(v: ConferenceCall): string | undefined {
  const r = v.roster;
  if (v.maxParticipants < 1 || v.maxParticipants > MAX_PARTICIPANTS_LIMIT)
    return 'maxParticipants out of range';
  if ((r.kind === 'Transparent') !== (v.privacy.kind === 'Transparent')) return 'roster differs from privacy';
  const active = r.kind === 'Transparent' ? r.participants.length : r.active;
  if (active > v.maxParticipants) return 'roster larger than maxParticipants';
  if (r.kind === 'Transparent') {
    for (let i = 1; i < r.participants.length; i++)
      if (r.participants[i - 1]! >= r.participants[i]!) return 'participants not strictly sorted';
  }
  const ended = v.status.kind === 'Ended';
  if (ended !== (v.endedHeight !== undefined) || ended !== (v.endedAtMs !== undefined))
    return 'end record does not match the status';
  return undefined;
}

export const CONFERENCE_TABLES = [
  tableDef<ConferenceCall>('conferenceCall', ConferenceCallCodec, {
    idOf: (v) => v.id,
    links: (id) => [['callsByDomain', parseCallId(id)?.domain ?? '']],
    linksById: true,
    check: (_id, v) => checkCall(v),
  }),
  tableDef<ConferenceRelay>('conferenceRelay', ConferenceRelayCodec, {
    idOf: (v) => v.id,
    check: (_id, v) => (v.publicKey.every((b) => b === 0) ? 'all-zero relay key' : undefined),
  }),
] as const;

const ROSTER_COMMITMENT_WEIGHT = 5;

/** A private action's proof (roster membership or usage), and a fee's note spend with its pool append. */
function proofs(ins: Instruction): number {
  let w = 0;
  if ('private' in ins && ins.private !== undefined) w += GROTH16_VERIFY_WEIGHT;
  if ('fee' in ins && ins.fee !== undefined) w += GROTH16_VERIFY_WEIGHT + POOL_APPEND_WEIGHT;
  return w;
}

// Private calls prove against the roster and usage keys and pay the entry fee through the core's
// shielded pool (state/zk-parameters.ts): parameter ids are consensus data and never change.
declareZkParameters({
  verifyingKeys: [
    { id: 'conference_roster_vk', artifact: 'roster' },
    { id: 'conference_usage_vk', artifact: 'usage' },
  ],
  entryFee: 'conference_entry_fee',
  feeAccount: 'conference_fee_account',
  devKeysFeature: 'conference.dev_keys',
});

export const conferenceWire = declareModuleWire({
  name: 'conference',
  instructions: INSTRUCTIONS,
  events: EVENTS,
  // 6xx (619, the native asset charge's, is the core's)
  rejections: {
    conference_not_found: 'no such conference call',
    conference_relay_not_found: 'no such conference relay',
    conference_ended: 'the call has ended',
    conference_not_host: 'only the host may do this',
    conference_invalid_call: 'the call settings are out of range (capacity, schedule, rate, texts)',
    conference_billing_not_allowed:
      'the billing account is neither the host nor grants the host CanTransferFrom',
    conference_privacy_mismatch: 'privacy artefacts do not match the call privacy mode',
    conference_manifest_invalid: 'the relay manifest is malformed (hops, weights, duplicates)',
    conference_manifest_expired: 'the relay manifest expires at or before the block time',
    conference_relay_key_mismatch: 'a hop key differs from the relay registered key',
    conference_relay_unavailable: 'a relay last reported itself unavailable',
    conference_already_joined: 'the participant is already in the roster',
    conference_roster_full: 'the roster holds maxParticipants participants',
    conference_not_participant: 'the participant is not in the roster',
    conference_not_self: 'a participant may only act for itself',
    conference_usage_not_allowed: 'only the host or an operator of a manifest relay may record usage',
    conference_segment_not_increasing: 'usage segments must strictly increase per call',
    conference_billing_mismatch: 'billedGas differs from durationMs × gasRatePerMinute',
    conference_invalid_relay: 'the relay key is all zero, or the health report is out of range',
    conference_not_relay_operator: 'only the relay operator may do this',
    conference_usage_exceeds_elapsed:
      'the call total duration would pass the block time since creation × maxParticipants',
  },
  weights: {
    CreateConference: {
      ...sized(60, 0.1),
      extra: (ins) =>
        (ins.kind === 'CreateConference' ? ROSTER_COMMITMENT_WEIGHT * ins.rosterCommitments.length : 0) +
        proofs(ins),
      nested: '+ 5 × rosterCommitments + fee ? (verify + poolAppend)',
    },
    JoinConference: {
      ...sized(60, 0.05),
      extra: proofs,
      nested: '+ private ? verify + fee ? (verify + poolAppend)',
    },
    LeaveConference: { ...row(60), extra: proofs, nested: '+ private ? verify' },
    RecordConferenceUsage: { ...row(60), extra: proofs, nested: '+ private ? verify' },
    EndConference: row(60),
    SetConferenceRelayManifest: sized(60, 0.1),
    RegisterConferenceRelay: row(40),
    ReportConferenceRelayHealth: row(30),
  },
  schemaTypes: [ConferenceCallCodec, ConferenceRelayCodec],
  tables: CONFERENCE_TABLES as unknown as readonly TableDef<never>[],
  docs: 'docs/conference.md',
});
