// The conference module's model (docs/conference.md): ids, roster proofs, relay manifests and the
// stored entities. A call is `<domain>:<call name>`; a relay is a global name.

import type { Codec, Infer } from '../../codec/codec.js';
import { enumOf, option, seq, struct } from '../../codec/compound.js';
import { bool, fixedBytes, string, u16, u32, u64, varuint } from '../../codec/primitives.js';
import { textType } from '../../codec/text.js';
import { AccountId, DomainId } from '../../model/ids.js';
import { MetadataCodec } from '../../model/metadata.js';
import { Name, nameProblem } from '../../model/names.js';
import { type Numeric, NumericCodec } from '../../model/numeric.js';
import { Field, Groth16ProofCodec } from '../../model/proofs.js';

// ---- ids ----------------------------------------------------------------------------------------

/** Why `name` cannot be a call name: a name without ':' (the separator of the call id). */
export function callNameProblem(name: string): string | undefined {
  return nameProblem(name) ?? (name.includes(':') ? "contains ':'" : undefined);
}

/** Splits '<domain>:<call name>' at its last ':'; undefined when malformed. */
export function parseCallId(text: string): { domain: string; name: string } | undefined {
  const i = text.lastIndexOf(':');
  if (i <= 0) return undefined;
  const domain = text.slice(0, i);
  const name = text.slice(i + 1);
  if (nameProblem(domain) !== undefined || callNameProblem(name) !== undefined) return undefined;
  return { domain, name };
}

export function callId(domain: string, name: string): string {
  return `${domain}:${name}`;
}

/** A conference call: `<domain>:<call name>` (the domain may hold ':', the call name may not). */
export const CallId: Codec<string> = textType<{ domain: string; name: string }>({
  name: 'CallId',
  base: struct('CallIdParts', { domain: DomainId, name: Name }),
  format: "<domain>:<call name without ':'>",
  parse: parseCallId,
  print: (v) => callId(v.domain, v.name),
  check: (v) => callNameProblem(v.name),
});

/** A media relay: a global name. */
export const RelayId: Codec<string> = textType<string>({
  name: 'RelayId',
  base: string(128),
  format: 'a name',
  parse: (t) => t,
  print: (t) => t,
  check: nameProblem,
});

// ---- zero-knowledge artefacts -------------------------------------------------------------------

// The zk layer's wire types (model/proofs.ts) and the shielded pool's note spend (model/shielded.ts).
export {
  BN254_R,
  FIELD_BYTES,
  Field,
  fieldText,
  type Groth16Proof,
  Groth16ProofCodec,
} from '../../model/proofs.js';
export { type NoteSpend, NoteSpendCodec } from '../../model/shielded.js';

/**
 * Proof that the authority holds an invited roster commitment, with the per-call nullifier. A leave
 * also carries `joinNullifier`, the member's join nullifier its proof outputs (a leave must follow
 * a recorded join); join and usage leave it out.
 */
export const RosterProofCodec = struct('RosterProof', {
  nullifier: Field,
  proof: Groth16ProofCodec,
  joinNullifier: option(Field),
});
export type RosterProof = Infer<typeof RosterProofCodec>;

// ---- relays and manifests -----------------------------------------------------------------------

export const X25519_KEY_BYTES = 32;
export const MANIFEST_HOPS_MIN = 3;
export const MANIFEST_HOPS_MAX = 16;
export const HOP_WEIGHT_MAX = 1000;

/** One hop of a relay path: the relay, its X25519 key (must equal the registered one) and a weight 1..1000. */
export const RelayHopCodec = struct('RelayHop', {
  relay: RelayId,
  publicKey: fixedBytes(X25519_KEY_BYTES),
  weight: u16,
});
export type RelayHop = Infer<typeof RelayHopCodec>;

/** The relays a call's media goes through: 3..16 distinct hops, valid until `expiresAtMs` (block time). */
export const RelayManifestCodec = struct('RelayManifest', {
  hops: seq(RelayHopCodec, MANIFEST_HOPS_MAX),
  expiresAtMs: u64,
});
export type RelayManifest = Infer<typeof RelayManifestCodec>;

// ---- billing ----------------------------------------------------------------------------------

const MS_PER_MINUTE = 60_000n;

/**
 * The gas a usage segment bills (docs/conference.md §Billing): ceil(durationMs × ratePerMinute / 60 000)
 * as a mantissa at `scale` (the native asset's), rounded up to its smallest unit. May exceed 2^128-1;
 * the executor refuses that with `overflow`.
 */
export function conferenceGas(ratePerMinute: Numeric, durationMs: bigint, scale: number): bigint {
  const num = ratePerMinute.mantissa * durationMs * 10n ** BigInt(scale);
  const den = 10n ** BigInt(ratePerMinute.scale) * MS_PER_MINUTE;
  return (num + den - 1n) / den;
}

// ---- enums --------------------------------------------------------------------------------------

/**
 * Who may see and join a call. On the ledger both admit any registered account joining itself (every
 * authority is registered); Authenticated additionally tells the routes to serve the call only to signed
 * requests (docs/conference.md §Calls).
 */
export const RoomPolicyCodec = enumOf('RoomPolicy', { Public: {}, Authenticated: {} });
export type RoomPolicy = Infer<typeof RoomPolicyCodec>;

export const PrivacyModeCodec = enumOf('PrivacyMode', { Transparent: {}, ZkRosterV1: {} });
export type PrivacyMode = Infer<typeof PrivacyModeCodec>;

/** JSON spellings of the enums (the codec's JSON form is the variant object; these are for routes and docs). */
export const ROOM_POLICY_JSON = { Public: 'public', Authenticated: 'authenticated' } as const;
export const PRIVACY_MODE_JSON = { Transparent: 'transparent', ZkRosterV1: 'zk-roster-v1' } as const;

export const ConferenceStatusCodec = enumOf('ConferenceStatus', { Active: {}, Ended: {} });
export type ConferenceStatus = Infer<typeof ConferenceStatusCodec>;

// ---- entities -----------------------------------------------------------------------------------

export const MAX_PARTICIPANTS_LIMIT = 10_000;
export const ROSTER_COMMITMENTS_MAX = 256;

/** Transparent: the participants' account ids, sorted. Private: invited commitments, their root, active count. */
export const ConferenceRosterCodec = enumOf('ConferenceRoster', {
  Transparent: { participants: seq(AccountId, MAX_PARTICIPANTS_LIMIT) },
  ZkRosterV1: { commitments: seq(Field, ROSTER_COMMITMENTS_MAX), root: Field, active: u32 },
});
export type ConferenceRoster = Infer<typeof ConferenceRosterCodec>;

/** Totals of the usage recorded for a call. */
export const ConferenceUsageCodec = struct('ConferenceUsage', {
  durationMs: u64,
  billedGas: NumericCodec,
  segments: u32,
  lastSegment: option(u32),
});
export type ConferenceUsage = Infer<typeof ConferenceUsageCodec>;

export const ConferenceCallCodec = struct('ConferenceCall', {
  id: CallId,
  host: AccountId,
  title: string(256),
  description: string(4096),
  policy: RoomPolicyCodec,
  privacy: PrivacyModeCodec,
  scheduledStartMs: u64,
  scheduledEndMs: option(u64),
  maxParticipants: u32,
  gasRatePerMinute: NumericCodec,
  billingAccount: AccountId,
  metadata: MetadataCodec,
  manifest: option(RelayManifestCodec),
  roster: ConferenceRosterCodec,
  usage: ConferenceUsageCodec,
  status: ConferenceStatusCodec,
  createdHeight: varuint,
  createdAtMs: u64,
  endedHeight: option(varuint),
  endedAtMs: option(u64),
});
export type ConferenceCall = Infer<typeof ConferenceCallCodec>;

/** The last health a relay's operator reported, with the block height and time of the report. */
export const RelayHealthCodec = struct('RelayHealth', {
  available: bool,
  latencyMs: u32,
  lossPermille: u16,
  height: varuint,
  timeMs: u64,
});
export type RelayHealth = Infer<typeof RelayHealthCodec>;

export const ConferenceRelayCodec = struct('ConferenceRelay', {
  id: RelayId,
  operator: AccountId,
  publicKey: fixedBytes(X25519_KEY_BYTES),
  endpoint: string(256),
  region: string(64),
  health: option(RelayHealthCodec),
  registeredHeight: varuint,
});
export type ConferenceRelay = Infer<typeof ConferenceRelayCodec>;

/** How a roster summary came about. */
export const RosterChangeCodec = enumOf('RosterChange', { Created: {}, Joined: {}, Left: {} });
export type RosterChange = Infer<typeof RosterChangeCodec>;
