// Answer types of the conference read routes (docs/conference.md "Routes and CLI"), defined once as
// codec types: the same definition gives the JSON answer, the codec answer (`Accept:
// application/x-codec`) and the JSON Schema of the OpenAPI document (gateway/view.ts). Enumerations
// are lower-case words in JSON (`public`, `zk-roster-v1`, `active`), as docs/conference.md spells them.

import type { Infer } from '../../codec/codec.js';
import { option, seq, struct } from '../../codec/compound.js';
import { fixedBytes, string, u32, u64, varuint } from '../../codec/primitives.js';
import { AccountId, DomainId } from '../../model/ids.js';
import { MetadataCodec } from '../../model/metadata.js';
import { Name } from '../../model/names.js';
import { NumericCodec } from '../../model/numeric.js';
import {
  CallId,
  ConferenceUsageCodec,
  Field,
  RelayHealthCodec,
  RelayId,
  RelayManifestCodec,
  X25519_KEY_BYTES,
} from './model.js';

/** `available`, `unavailable` (its last report), or `unknown` (never reported). */
export const RELAY_STATUSES = ['available', 'unavailable', 'unknown'] as const;
export type RelayStatus = (typeof RELAY_STATUSES)[number];

export const CALL_STATUSES = ['active', 'ended'] as const;

export const RelayView = struct('ConferenceRelayItem', {
  id: RelayId,
  operator: AccountId,
  /** The operator's domain, so relays can be filtered by domain. */
  domain: DomainId,
  /** X25519 public key, 64 hex digits. */
  publicKey: fixedBytes(X25519_KEY_BYTES),
  endpoint: string(256),
  region: string(64),
  /** available | unavailable | unknown */
  status: string(16),
  health: option(RelayHealthCodec),
  registeredHeight: varuint,
});
export type RelayItem = Infer<typeof RelayView>;

export const RelayListView = struct('ConferenceRelayList', { items: seq(RelayView), total: varuint });

export const RelayHealthItemView = struct('ConferenceRelayHealthItem', {
  relay: RelayId,
  /** available | unavailable | unknown */
  status: string(16),
  health: option(RelayHealthCodec),
});
export type RelayHealthItem = Infer<typeof RelayHealthItemView>;

/** Totals over every registered relay, and one page of per-relay latest health (`total` = registered). */
export const RelayHealthView = struct('ConferenceRelayHealth', {
  registered: varuint,
  available: varuint,
  unavailable: varuint,
  unknown: varuint,
  items: seq(RelayHealthItemView),
  total: varuint,
});
export type RelayHealthSummary = Infer<typeof RelayHealthView>;

const callSummaryFields = {
  id: CallId,
  domain: DomainId,
  name: Name,
  host: AccountId,
  title: string(256),
  /** public | authenticated */
  policy: string(16),
  /** transparent | zk-roster-v1 */
  privacy: string(16),
  /** active | ended */
  status: string(16),
  scheduledStartMs: u64,
  scheduledEndMs: option(u64),
  maxParticipants: u32,
  /** Participants in the roster now (private calls: joined and not left). */
  activeParticipants: u32,
  gasRatePerMinute: NumericCodec,
  billingAccount: AccountId,
  /** The relays of the call's manifest, in hop order (empty without one). */
  relays: seq(RelayId),
  usage: ConferenceUsageCodec,
  createdHeight: varuint,
  createdAtMs: u64,
  endedAtMs: option(u64),
};

/** A call in a list: everything but the roster, the description, metadata and the manifest's keys. */
export const CallSummaryView = struct('ConferenceCallSummary', callSummaryFields);
export type CallSummary = Infer<typeof CallSummaryView>;

export const CallListView = struct('ConferenceCallList', { items: seq(CallSummaryView), total: varuint });

/** One call: the summary plus description, metadata, manifest and the roster. */
export const CallView = struct('ConferenceCall', {
  ...callSummaryFields,
  description: string(4096),
  metadata: MetadataCodec,
  manifest: option(RelayManifestCodec),
  /** Transparent calls: the participants' account ids, sorted. Private calls: empty. */
  participants: seq(AccountId),
  /** Private calls: the invited roster commitments. Transparent calls: empty. */
  rosterCommitments: seq(Field),
  /** Private calls: the Poseidon Merkle root of the commitments. */
  rosterRoot: option(Field),
  endedHeight: option(varuint),
});
export type CallDetail = Infer<typeof CallView>;

/** The shielded pool tree as a client needs it to prove a note spend (docs/conference.md "Shielded fee"). */
export const ShieldedPoolView = struct('ConferenceShieldedPool', {
  /** One page of note commitments in leaf order, from leaf `offset` (the tree has at most 2^16 leaves). */
  leaves: seq(Field),
  /** The leaf index of the first leaf of the page. */
  offset: varuint,
  /** How many leaves the tree holds (the page's root is the root of exactly these). */
  total: varuint,
  /** The current root; absent before the first note. */
  root: option(Field),
  /** The roots a spend may still prove against, oldest first. */
  roots: seq(Field),
});
export type ShieldedPool = Infer<typeof ShieldedPoolView>;
