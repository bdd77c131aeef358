// Builders of the conference instructions (docs/conference.md), part of `instructions`. Times are
// milliseconds (number or bigint); keys and fields accept hex text or bytes.

import {
  conferenceGas,
  type NoteSpend,
  PRIVACY_MODE_JSON,
  type RelayManifest,
  ROOM_POLICY_JSON,
  type RosterProof,
} from '../model/conference.js';
import type { Instruction } from '../model/instructions.js';
import { formatNumeric, type Numeric } from '../model/numeric.js';
import { fromHex } from '../util/hex.js';
import { type AmountLike, type MetadataLike, toAmount, toMetadata } from './instructions-common.js';

export type Millis = number | bigint;
type JsonName<T extends Record<string, string>> = T[keyof T];

export interface CreateConferenceOptions {
  title: string;
  description?: string;
  policy?: JsonName<typeof ROOM_POLICY_JSON>;
  privacy?: JsonName<typeof PRIVACY_MODE_JSON>;
  scheduledStartMs?: Millis;
  scheduledEndMs?: Millis;
  maxParticipants: number;
  gasRatePerMinute: AmountLike;
  billingAccount: string;
  metadata?: MetadataLike;
  manifest?: RelayManifest;
  rosterCommitments?: string[];
  fee?: NoteSpend;
}

const ms = (v: Millis): bigint => BigInt(v);

function kindOf<T extends Record<string, string>>(table: T, json: string): keyof T & string {
  const k = Object.keys(table).find((key) => table[key] === json);
  if (k === undefined) throw new RangeError(`expected one of ${Object.values(table).join(', ')}`);
  return k;
}

/** A 32-byte X25519 key from hex or bytes. */
export function x25519Key(key: string | Uint8Array): Uint8Array {
  const bytes = typeof key === 'string' ? fromHex(key, 32) : key;
  if (bytes === undefined || bytes.length !== 32) throw new RangeError('expected a 32-byte X25519 key');
  return bytes;
}

/** The billedGas a segment must carry: ceil(durationMs × rate / 60 000) at the native asset's scale. */
export function billedGasFor(ratePerMinute: AmountLike, durationMs: Millis, nativeScale: number): Numeric {
  const m = conferenceGas(toAmount(ratePerMinute), ms(durationMs), nativeScale);
  return { mantissa: m, scale: m === 0n ? 0 : nativeScale };
}

/** The decimal text of billedGasFor. */
export const billedGasText = (rate: AmountLike, durationMs: Millis, scale: number): string =>
  formatNumeric(billedGasFor(rate, durationMs, scale));

const opt = <K extends string, V>(key: K, v: V | undefined) =>
  (v === undefined ? {} : { [key]: v }) as { [P in K]?: V };

export const conferenceInstructions = {
  createConference: (call: string, o: CreateConferenceOptions): Instruction => ({
    kind: 'CreateConference',
    call,
    policy: { kind: kindOf(ROOM_POLICY_JSON, o.policy ?? 'authenticated') },
    privacy: { kind: kindOf(PRIVACY_MODE_JSON, o.privacy ?? 'transparent') },
    title: o.title,
    description: o.description ?? '',
    scheduledStartMs: ms(o.scheduledStartMs ?? 0),
    ...opt('scheduledEndMs', o.scheduledEndMs === undefined ? undefined : ms(o.scheduledEndMs)),
    maxParticipants: o.maxParticipants,
    gasRatePerMinute: toAmount(o.gasRatePerMinute),
    billingAccount: o.billingAccount,
    metadata: toMetadata(o.metadata),
    ...opt('manifest', o.manifest),
    rosterCommitments: o.rosterCommitments ?? [],
    ...opt('fee', o.fee),
  }),
  joinConference: (
    call: string,
    o: { participant?: string; answer?: Uint8Array; private?: RosterProof; fee?: NoteSpend } = {},
  ): Instruction => ({
    kind: 'JoinConference',
    call,
    ...opt('participant', o.participant),
    ...opt('answer', o.answer),
    ...opt('private', o.private),
    ...opt('fee', o.fee),
  }),
  leaveConference: (call: string, o: { participant?: string; private?: RosterProof } = {}): Instruction => ({
    kind: 'LeaveConference',
    call,
    ...opt('participant', o.participant),
    ...opt('private', o.private),
  }),
  recordConferenceUsage: (
    call: string,
    segment: number,
    durationMs: Millis,
    billedGas: AmountLike,
    o: { participant?: string; private?: RosterProof } = {},
  ): Instruction => ({
    kind: 'RecordConferenceUsage',
    call,
    segment,
    durationMs: ms(durationMs),
    billedGas: toAmount(billedGas),
    ...opt('participant', o.participant),
    ...opt('private', o.private),
  }),
  endConference: (call: string): Instruction => ({ kind: 'EndConference', call }),
  setConferenceRelayManifest: (call: string, manifest: RelayManifest): Instruction => ({
    kind: 'SetConferenceRelayManifest',
    call,
    manifest,
  }),
  registerConferenceRelay: (
    relay: string,
    publicKey: string | Uint8Array,
    endpoint: string,
    region: string,
  ): Instruction => ({
    kind: 'RegisterConferenceRelay',
    relay,
    publicKey: x25519Key(publicKey),
    endpoint,
    region,
  }),
  reportConferenceRelayHealth: (
    relay: string,
    h: { available: boolean; latencyMs: number; lossPermille: number },
  ): Instruction => ({ kind: 'ReportConferenceRelayHealth', relay, ...h }),
  shieldAsset: (amount: AmountLike, ownerHash: string): Instruction => ({
    kind: 'ShieldAsset',
    amount: toAmount(amount),
    ownerHash,
  }),
} as const;
