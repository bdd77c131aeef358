// Builders of the conference instructions (docs/conference.md "Instructions"), spread into
// the SDK's `instructions` (src/sdk/instructions.ts, through sdk.ts). Keys and hashes accept bytes or hex text; times and durations a
// number or a bigint of milliseconds; amounts as every builder does (AmountLike). The SDK builds what
// the ledger checks; it does not repeat the ledger's rules.

import type { Instruction } from '../../model/instructions.js';
import { type AmountLike, type MetadataLike, toAmount, toMetadata } from '../../sdk/amounts.js';
import { fromHex } from '../../util/hex.js';
import type { NoteSpend, RelayManifest, RosterProof } from './model.js';

export type BytesLike = Uint8Array | string;
export type MillisLike = number | bigint;

export interface RelayHopLike {
  relay: string;
  /** X25519 public key: 32 bytes or 64 hex digits. */
  publicKey: BytesLike;
  /** 1..1000. */
  weight: number;
}

export interface RelayManifestLike {
  hops: RelayHopLike[];
  expiresAtMs: MillisLike;
}

export interface CreateConferenceOptions {
  /** Default 'authenticated' (the reference's default room policy). */
  policy?: 'public' | 'authenticated';
  /** Default 'transparent'. */
  privacy?: 'transparent' | 'zk-roster-v1';
  title: string;
  description?: string;
  scheduledStartMs: MillisLike;
  scheduledEndMs?: MillisLike;
  maxParticipants: number;
  gasRatePerMinute: AmountLike;
  billingAccount: string;
  metadata?: MetadataLike;
  manifest?: RelayManifestLike;
  /** Private calls: the invited roster commitments (64 hex digits each). */
  rosterCommitments?: string[];
  /** Private calls: the shielded entry fee. */
  fee?: NoteSpend;
}

export interface JoinConferenceOptions {
  /** Transparent calls: the joining account (itself). */
  participant?: string;
  /** The encrypted signalling answer (opaque to the node), at most 16 KiB. */
  answer?: BytesLike;
  /** Private calls: the roster proof. */
  private?: RosterProof;
  fee?: NoteSpend;
}

export interface UsageOptions {
  participant?: string;
  segment: number;
  durationMs: MillisLike;
  billedGas: AmountLike;
  private?: RosterProof;
}

/** Bytes from bytes or hex text of exactly `length` bytes (any length when undefined). */
export function toBytes(v: BytesLike, what: string, length?: number): Uint8Array {
  if (typeof v !== 'string') return v;
  const bytes = fromHex(v, length);
  if (bytes === undefined)
    throw new RangeError(`${what}: expected ${length === undefined ? '' : `${length * 2} `}hex digits`);
  return bytes;
}

function toMillis(v: MillisLike, what: string): bigint {
  if (typeof v === 'number' && !Number.isSafeInteger(v)) throw new RangeError(`${what}: not an integer`);
  const n = BigInt(v);
  if (n < 0n) throw new RangeError(`${what}: never negative`);
  return n;
}

export function toManifest(m: RelayManifestLike): RelayManifest {
  return {
    hops: m.hops.map((h) => ({
      relay: h.relay,
      publicKey: toBytes(h.publicKey, 'relay public key', 32),
      weight: h.weight,
    })),
    expiresAtMs: toMillis(m.expiresAtMs, 'expiresAtMs'),
  };
}

const opt = <K extends string, V>(key: K, v: V | undefined) =>
  (v === undefined ? {} : { [key]: v }) as { [P in K]?: V };

export const conferenceInstructions = {
  createConference: (call: string, o: CreateConferenceOptions): Instruction => ({
    kind: 'CreateConference',
    call,
    policy: { kind: o.policy === 'public' ? 'Public' : 'Authenticated' },
    privacy: { kind: o.privacy === 'zk-roster-v1' ? 'ZkRosterV1' : 'Transparent' },
    title: o.title,
    description: o.description ?? '',
    scheduledStartMs: toMillis(o.scheduledStartMs, 'scheduledStartMs'),
    ...opt(
      'scheduledEndMs',
      o.scheduledEndMs === undefined ? undefined : toMillis(o.scheduledEndMs, 'scheduledEndMs'),
    ),
    maxParticipants: o.maxParticipants,
    gasRatePerMinute: toAmount(o.gasRatePerMinute),
    billingAccount: o.billingAccount,
    metadata: toMetadata(o.metadata),
    ...opt('manifest', o.manifest === undefined ? undefined : toManifest(o.manifest)),
    rosterCommitments: o.rosterCommitments ?? [],
    ...opt('fee', o.fee),
  }),
  joinConference: (call: string, o: JoinConferenceOptions = {}): Instruction => ({
    kind: 'JoinConference',
    call,
    ...opt('participant', o.participant),
    ...opt('answer', o.answer === undefined ? undefined : toBytes(o.answer, 'answer')),
    ...opt('private', o.private),
    ...opt('fee', o.fee),
  }),
  leaveConference: (call: string, o: { participant?: string; private?: RosterProof } = {}): Instruction => ({
    kind: 'LeaveConference',
    call,
    ...opt('participant', o.participant),
    ...opt('private', o.private),
  }),
  recordConferenceUsage: (call: string, o: UsageOptions): Instruction => ({
    kind: 'RecordConferenceUsage',
    call,
    ...opt('participant', o.participant),
    segment: o.segment,
    durationMs: toMillis(o.durationMs, 'durationMs'),
    billedGas: toAmount(o.billedGas),
    ...opt('private', o.private),
  }),
  endConference: (call: string): Instruction => ({ kind: 'EndConference', call }),
  setConferenceRelayManifest: (call: string, manifest: RelayManifestLike): Instruction => ({
    kind: 'SetConferenceRelayManifest',
    call,
    manifest: toManifest(manifest),
  }),
  /** Registers a media relay operated by the authority: its X25519 key, endpoint and region. */
  registerConferenceRelay: (
    relay: string,
    publicKey: BytesLike,
    endpoint: string,
    region: string,
  ): Instruction => ({
    kind: 'RegisterConferenceRelay',
    relay,
    publicKey: toBytes(publicKey, 'relay public key', 32),
    endpoint,
    region,
  }),
  reportConferenceRelayHealth: (
    relay: string,
    h: { available: boolean; latencyMs: number; lossPermille: number },
  ): Instruction => ({
    kind: 'ReportConferenceRelayHealth',
    relay,
    available: h.available,
    latencyMs: h.latencyMs,
    lossPermille: h.lossPermille,
  }),
} as const;
