// Multisig accounts and their proposals (docs/multisig.md).
//
// A multisig account is an ordinary account whose id is DERIVED: its key part is an Ed25519-form key
// whose 32 bytes are a ledger hash of (domain, seed), so nobody holds a private key for it (finding one
// would mean inverting the hash and then solving a discrete logarithm). On top of that the executor
// refuses every transaction whose authority is a multisig account (multisig_direct_signing): it acts
// only through proposals that reach its quorum.

import type { Infer } from '../../codec/codec.js';
import { enumOf, map, struct } from '../../codec/compound.js';
import { string, u8, u16, varuint } from '../../codec/primitives.js';
import { hash } from '../../crypto/hash.js';
import { AccountId } from '../../model/ids.js';
import { RejectionCodec } from '../../model/rejections.js';
import { toHex } from '../../util/hex.js';

/** Most signatories of one multisig account. */
export const MULTISIG_SIGNATORIES_MAX = 64;
/** Most instructions one proposal carries. */
export const MULTISIG_INSTRUCTIONS_MAX = 64;
/** How deep proposals may execute inside proposals (a multisig approving as a signatory of another). */
/** Live proposals (collecting signatures, not expired) one signatory may have open on one multisig. */
export const MULTISIG_PENDING_PER_PROPOSER_MAX = 64;

export const MULTISIG_NESTING_MAX = 4;
/** Default and largest proposal time to live (block time). */
export const MULTISIG_TTL_MS_DEFAULT = 3_600_000;
export const MULTISIG_TTL_MS_MAX = 365 * 24 * 3_600_000;
/** Longest seed (the text the account id is derived from, with the domain). */
export const MULTISIG_SEED_BYTES_MAX = 64;

/** Signatories (account → weight 0..255, a map: one canonical order), quorum and proposal TTL. */
export const MultisigSpecCodec = struct('MultisigSpec', {
  signatories: map(AccountId, u8, MULTISIG_SIGNATORIES_MAX),
  quorum: u16,
  transactionTtlMs: varuint,
});
export type MultisigSpec = Infer<typeof MultisigSpecCodec>;

/** World-state table 0x14, keyed by the multisig account id. */
export const MultisigAccountCodec = struct('MultisigAccount', {
  account: AccountId,
  spec: MultisigSpecCodec,
});
export type MultisigAccount = Infer<typeof MultisigAccountCodec>;

/**
 * Stored status. EXPIRED is derived from block time (`proposalStatus`); it is stored only when the
 * proposer next proposes on the same multisig (the per-proposer cap counts live proposals).
 */
export const MultisigStatusCodec = enumOf('MultisigProposalStatus', {
  CollectingSignatures: {},
  Finalized: {},
  Canceled: {},
  Expired: {},
});
export type MultisigStatus = Infer<typeof MultisigStatusCodec>['kind'];

/** What the inner batch of a finalized proposal did: committed, or the rejection it met (rolled back). */
export const MultisigResultCodec = enumOf('MultisigResult', {
  Committed: {},
  Rejected: { reason: RejectionCodec },
});
export type MultisigResult = Infer<typeof MultisigResultCodec>;

/** Status names on the HTTP API. */
export const STATUS_TEXT: Readonly<Record<MultisigStatus, string>> = Object.freeze({
  CollectingSignatures: 'COLLECTING_SIGNATURES',
  Finalized: 'FINALIZED',
  Canceled: 'CANCELED',
  Expired: 'EXPIRED',
});

/** The domain-separation prefix of the derived account key. */
const DERIVE_TAG = 'torana/multisig-account/v1';

/** The id of the multisig account registered in `domain` with `seed` (see the header). */
export function multisigAccountId(domain: string, seed: string): string {
  const key = hash(new TextEncoder().encode(`${DERIVE_TAG}\u0000${domain}\u0000${seed}`));
  return `ed0120${toHex(key, true)}@${domain}`;
}

/** The proposal's row id: `<multisig account>#<instructions hash>` ('#' never occurs in an account id). */
export function proposalRowId(multisig: string, instructionsHash: string): string {
  return `${multisig}#${instructionsHash}`;
}

/** Total weight of `approvers` that are signatories under `spec` (others count nothing). */
export function approvalWeight(spec: MultisigSpec, approvers: readonly string[]): number {
  let w = 0;
  for (const a of approvers) w += spec.signatories.get(a) ?? 0;
  return w;
}

/** Why a spec is unusable, or undefined (signatory existence is checked by the executor). */
export function specProblem(account: string, spec: MultisigSpec): string | undefined {
  if (spec.signatories.size === 0) return 'no signatories';
  if (spec.signatories.has(account)) return 'a multisig account cannot be its own signatory';
  if (spec.quorum < 1) return 'quorum must be at least 1';
  const total = approvalWeight(spec, [...spec.signatories.keys()]);
  if (spec.quorum > total) return `quorum ${spec.quorum} exceeds the total weight ${total}`;
  if (spec.transactionTtlMs < 1 || spec.transactionTtlMs > MULTISIG_TTL_MS_MAX)
    return `transaction_ttl_ms must be 1..${MULTISIG_TTL_MS_MAX}`;
  return undefined;
}

/** The status at block time `nowMs`: a collecting proposal at or past its expiry is EXPIRED. */
export function proposalStatus(
  p: { status: { kind: MultisigStatus }; expiresAtMs: number },
  nowMs: number,
): MultisigStatus {
  if (p.status.kind === 'CollectingSignatures' && nowMs >= p.expiresAtMs) return 'Expired';
  return p.status.kind;
}

/** The seed text a RegisterMultisig carries. */
export const SeedText = string(MULTISIG_SEED_BYTES_MAX);
