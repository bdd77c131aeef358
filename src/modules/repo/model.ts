// Repo (repurchase) agreements (docs/repo.md): the wire types of an agreement, its deterministic id, the
// limits and the arithmetic of its requirement, value and interest. The initiator borrows cash against
// collateral; the counterparty lends the cash. Quantities are the ledger's decimal amounts, held at their
// asset definitions' scales. Every figure is computed with integers (bigint); the rounding of each is
// stated where it is computed and always favours the cash lender.

import type { Infer } from '../../codec/codec.js';
import { enumOf, option, seq, struct } from '../../codec/compound.js';
import { string, u32, varuint } from '../../codec/primitives.js';
import { blake2b256 } from '../../crypto/hash.js';
import { AccountId, AssetDefinitionId } from '../../model/ids.js';
import { MetadataCodec } from '../../model/metadata.js';
import { type Numeric, NumericCodec } from '../../model/numeric.js';
import { toHex } from '../../util/hex.js';

/** Characters of an agreement id: `repo_` and 40 hex digits. */
export const REPO_ID_CHARS = 45;
/** Bytes of the initiator's reference (UTF-8): one agreement per initiator and reference. */
export const REPO_REFERENCE_BYTES_MAX = 128;
/** Encoded bytes of a leg's metadata. */
export const REPO_METADATA_BYTES_MAX = 2048;
/** Prices an agreement holds (one per collateral definition it may take). */
export const REPO_PRICES_MAX = 8;
/** The largest rate and haircut, in basis points (1,000 % and 100 %). */
export const REPO_RATE_BPS_MAX = 100_000;
export const REPO_HAIRCUT_BPS_MAX = 10_000;
/** The longest margin-call window (30 days) and the shortest (1 s). */
export const REPO_MARGIN_WINDOW_MS_MAX = 30 * 86_400_000;
export const REPO_MARGIN_WINDOW_MS_MIN = 1_000;
/** The year interest accrues over: 365 days of milliseconds. */
export const REPO_YEAR_MS = 365n * 86_400_000n;
/** The custom chain parameter naming the account that holds collateral in escrow. */
export const REPO_ESCROW_PARAMETER = 'repo_escrow_account';

export const RepoId = string(REPO_ID_CHARS);
export const RepoReference = string(REPO_REFERENCE_BYTES_MAX);

/** One leg: a quantity of an asset definition, at its scale, with the parties' notes. */
export const RepoLegCodec = struct('RepoLeg', {
  assetDefinitionId: AssetDefinitionId,
  quantity: NumericCodec,
  metadata: MetadataCodec,
});
export type RepoLeg = Infer<typeof RepoLegCodec>;

/** The price of one unit of a collateral definition, in units of the cash definition. */
export const RepoPriceCodec = struct('RepoPrice', {
  assetDefinitionId: AssetDefinitionId,
  price: NumericCodec,
});
export type RepoPrice = Infer<typeof RepoPriceCodec>;

/** Proposed until the counterparty accepts; then open, margin called, and finally unwound or defaulted. */
export const RepoStatusCodec = enumOf('RepoStatus', {
  Proposed: {},
  Open: {},
  MarginCalled: { deadlineMs: varuint },
  Unwound: {},
  Defaulted: {},
});
export type RepoStatus = Infer<typeof RepoStatusCodec>;

/** Who may do what beyond the two parties (docs/repo.md "Governance"). */
export const RepoGovernanceCodec = struct('RepoGovernance', {
  /** Sets the collateral prices: the custodian when there is one, else the counterparty. */
  priceAuthority: AccountId,
  /** How long a margin call stands before the agreement defaults. */
  marginWindowMs: varuint,
});

/** An agreement: world-state table 0x1e, keyed by its id. */
export const RepoAgreementCodec = struct('RepoAgreement', {
  id: RepoId,
  reference: RepoReference,
  /** Borrows the cash, gives the collateral. */
  initiator: AccountId,
  /** Lends the cash, takes the collateral on default. */
  counterparty: AccountId,
  custodian: option(AccountId),
  cashLeg: RepoLegCodec,
  collateralLeg: RepoLegCodec,
  rateBps: u32,
  haircutBps: u32,
  maturityTimestampMs: varuint,
  /** Proposal time; once accepted, the acceptance time (interest accrues from it). */
  initiatedTimestampMs: varuint,
  lastMarginCheckTimestampMs: varuint,
  prices: seq(RepoPriceCodec, REPO_PRICES_MAX),
  status: RepoStatusCodec,
  /** The escrow account holding the collateral (set on acceptance). */
  escrow: option(AccountId),
  /** The party that asked to unwind early, until the other agrees. */
  unwindRequestedBy: option(AccountId),
  governance: RepoGovernanceCodec,
});
export type RepoAgreement = Infer<typeof RepoAgreementCodec>;

const utf8 = new TextEncoder();

/** The id of the agreement `initiator` initiates under `reference`. */
export function repoAgreementId(initiator: string, reference: string): string {
  return `repo_${toHex(blake2b256(utf8.encode(`repo\u0000agreement\u0000${initiator}\u0000${reference}`))).slice(0, 40)}`;
}

/** The ledger-made scheduled run of an agreement (its maturity or its margin deadline). */
export function repoRunId(id: string): string {
  return `$repo:${id}`;
}

/** The price the agreement holds for `definition`. */
export const priceOf = (a: Pick<RepoAgreement, 'prices'>, definition: string): Numeric | undefined =>
  a.prices.find((p) => p.assetDefinitionId === definition)?.price;

const pow10 = (n: number): bigint => 10n ** BigInt(n);

/** The collateral requirement, cash × (1 + haircut), at the cash scale, rounded up. */
export function requirement(cash: Numeric, haircutBps: number): bigint {
  const n = cash.mantissa * BigInt(10_000 + haircutBps);
  return (n + 9_999n) / 10_000n;
}

/** The collateral's value (quantity × price) at the cash scale, rounded down. */
export function collateralValue(collateral: Numeric, price: Numeric, cashScale: number): bigint {
  const s = collateral.scale + price.scale;
  const m = collateral.mantissa * price.mantissa;
  return s >= cashScale ? m / pow10(s - cashScale) : m * pow10(cashScale - s);
}

/** Whether the collateral meets the requirement (compared exactly, before either rounding). */
export function meetsRequirement(
  cash: Numeric,
  haircutBps: number,
  collateral: Numeric,
  price: Numeric,
): boolean {
  // quantity × price / 10^(cs+ps) ≥ cash × (10000 + h) / (10000 × 10^c)
  const left = collateral.mantissa * price.mantissa * pow10(cash.scale) * 10_000n;
  const right = cash.mantissa * BigInt(10_000 + haircutBps) * pow10(collateral.scale + price.scale);
  return left >= right;
}

/** Interest cash × rate × elapsed / year at the cash scale, rounded down. */
export function interest(cash: Numeric, rateBps: number, elapsedMs: number): bigint {
  if (elapsedMs <= 0) return 0n;
  return (cash.mantissa * BigInt(rateBps) * BigInt(elapsedMs)) / (10_000n * REPO_YEAR_MS);
}

/** Load check: legs and prices at positive quantities, the deadline only while margin called. */
export function agreementProblem(a: RepoAgreement): string | undefined {
  if (a.cashLeg.quantity.mantissa <= 0n || a.collateralLeg.quantity.mantissa <= 0n) return 'an empty leg';
  if (a.prices.some((p) => p.price.mantissa <= 0n)) return 'a price of zero';
  if (a.status.kind !== 'Proposed' && a.escrow === undefined) return 'an accepted agreement without escrow';
  return undefined;
}
