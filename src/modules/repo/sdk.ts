// The repo agreements module's SDK functions (docs/repo.md): the builders of its instructions (spread
// into the SDK's `instructions`; quantities and prices are decimals, e.g. '1000.00', at their definitions'
// scales), the id an initiation gives (`repoAgreementId`), and the reads over the module's routes
// (routes.ts), decoded with the node's own view codecs so the SDK and the node cannot drift. An unknown
// agreement is a ToranaApiError with code `not_found`. src/sdk/index.ts re-exports these names.

import type { Json } from '../../codec/codec.js';
import type { Instruction } from '../../model/instructions.js';
import { type Numeric, numeric } from '../../model/numeric.js';
import { getView, type PageOptions, postJson } from '../../sdk/answers.js';
import type { Http } from '../../sdk/http.js';
import { repoAgreementId } from './model.js';
import { RepoDetailView, RepoListView } from './views.js';

const q = (v: string | Numeric): Numeric => (typeof v === 'string' ? numeric(v) : v);

/** One leg: a quantity of an asset definition, with notes. */
export interface RepoLegInput {
  definition: string;
  quantity: string | Numeric;
  metadata?: Record<string, Json>;
}

/** What InitiateRepo takes besides the reference (the id is `repoAgreementId(signer, reference)`). */
export interface RepoTermsInput {
  counterparty: string;
  custodian?: string;
  cash: RepoLegInput;
  collateral: RepoLegInput;
  rateBps: number;
  haircutBps: number;
  maturityMs: number;
  /** Units of the cash definition one unit of the collateral is worth. */
  collateralPrice: string | Numeric;
  /** How long a margin call stands before the agreement defaults (ms). */
  marginWindowMs: number;
}

const leg = (l: RepoLegInput) => ({
  assetDefinitionId: l.definition,
  quantity: q(l.quantity),
  metadata: new Map(Object.entries(l.metadata ?? {})),
});

export const repoInstructions = {
  /** Proposes the agreement `repoAgreementId(signer, reference)`; the signer borrows the cash. */
  initiateRepo: (reference: string, t: RepoTermsInput): Instruction => ({
    kind: 'InitiateRepo',
    reference,
    counterparty: t.counterparty,
    ...(t.custodian === undefined ? {} : { custodian: t.custodian }),
    cashLeg: leg(t.cash),
    collateralLeg: leg(t.collateral),
    rateBps: t.rateBps,
    haircutBps: t.haircutBps,
    maturityTimestampMs: t.maturityMs,
    collateralPrice: q(t.collateralPrice),
    marginWindowMs: t.marginWindowMs,
  }),
  /** The counterparty accepts: collateral to escrow, cash to the initiator. */
  acceptRepo: (id: string): Instruction => ({ kind: 'AcceptRepo', id }),
  /** The price authority prices a collateral definition (cash units per unit). */
  setRepoPrice: (id: string, definition: string, price: string | Numeric): Instruction => ({
    kind: 'SetRepoPrice',
    id,
    assetDefinition: definition,
    price: q(price),
  }),
  checkRepoMargin: (id: string): Instruction => ({ kind: 'CheckRepoMargin', id }),
  topUpRepoMargin: (id: string, quantity: string | Numeric): Instruction => ({
    kind: 'TopUpRepoMargin',
    id,
    quantity: q(quantity),
  }),
  substituteRepoCollateral: (id: string, collateral: RepoLegInput): Instruction => ({
    kind: 'SubstituteRepoCollateral',
    id,
    collateralLeg: leg(collateral),
  }),
  /** One party asks to unwind early (or withdraws a proposal); the other's call settles. */
  unwindRepo: (id: string): Instruction => ({ kind: 'UnwindRepo', id }),
  /** Only the agreement's own scheduled run may run it (the SDK builds it for completeness). */
  settleRepo: (id: string): Instruction => ({ kind: 'SettleRepo', id }),
} as const;

export type RepoList = ReturnType<typeof RepoListView.fromJson>;
export type RepoAgreementDetail = ReturnType<typeof RepoDetailView.fromJson>;

/** Agreements, by id or `sort`, filtered by `filter` (the list routes' JSON expression). */
export function repoAgreements(
  client: { http: Http },
  opts: PageOptions & { filter?: unknown; sort?: string } = {},
): Promise<RepoList> {
  const { filter, ...rest } = opts;
  if (filter === undefined) return getView(client.http, '/v1/repo/agreements', { ...rest }, RepoListView);
  return postJson(client.http, '/v1/repo/agreements/query', { ...rest, filter }, RepoListView);
}

/** One agreement with its legs, prices, status and governance. */
export function repoAgreement(client: { http: Http }, id: string): Promise<RepoAgreementDetail> {
  return getView(client.http, `/v1/repo/agreements/${encodeURIComponent(id)}`, {}, RepoDetailView);
}

export { repoAgreementId };

/** The module's SDK functions by name (its descriptor lists them; src/sdk/index.ts exports each). */
export const REPO_SDK = { repoAgreements, repoAgreement, repoAgreementId } as const;
