// Answer types of the repo agreement routes (routes.ts): codec types, so the JSON answer, the codec answer
// and the OpenAPI schema come from one definition (gateway/view.ts). JSON fields are snake_case.

import type { Infer } from '../../codec/codec.js';
import { option, seq, struct } from '../../codec/compound.js';
import { string, u32, varuint } from '../../codec/primitives.js';
import { AccountId, AssetDefinitionId } from '../../model/ids.js';
import { NumericCodec } from '../../model/numeric.js';
import {
  REPO_PRICES_MAX,
  type RepoAgreement,
  RepoGovernanceCodec,
  RepoId,
  RepoLegCodec,
  RepoPriceCodec,
  RepoReference,
  type RepoStatus,
} from './model.js';

export const LIST_ITEMS_MAX = 500;

/** An agreement in a list: its parties, legs' quantities, terms and status. */
export const RepoItemView = struct('AppRepoAgreement', {
  id: RepoId,
  initiator: AccountId,
  counterparty: AccountId,
  custodian: option(AccountId),
  cashDefinition: AssetDefinitionId,
  cash: NumericCodec,
  collateralDefinition: AssetDefinitionId,
  collateral: NumericCodec,
  rateBps: u32,
  haircutBps: u32,
  maturityTimestampMs: varuint,
  status: string(16),
});
export type RepoItem = Infer<typeof RepoItemView>;

/** The simple-list envelope of `GET /v1/repo/agreements` and `POST /v1/repo/agreements/query`. */
export const RepoListView = struct('AppRepoAgreementList', {
  items: seq(RepoItemView, LIST_ITEMS_MAX),
  total: varuint,
});

/** One agreement (`GET /v1/repo/agreements/{id}`): the entity, its status as text. */
export const RepoDetailView = struct('AppRepoAgreementDetail', {
  id: RepoId,
  reference: RepoReference,
  initiator: AccountId,
  counterparty: AccountId,
  custodian: option(AccountId),
  cashLeg: RepoLegCodec,
  collateralLeg: RepoLegCodec,
  rateBps: u32,
  haircutBps: u32,
  maturityTimestampMs: varuint,
  initiatedTimestampMs: varuint,
  lastMarginCheckTimestampMs: varuint,
  /** While margin called: when the agreement defaults unless the requirement is met again. */
  marginDeadlineMs: option(varuint),
  prices: seq(RepoPriceCodec, REPO_PRICES_MAX),
  status: string(16),
  escrow: option(AccountId),
  unwindRequestedBy: option(AccountId),
  governance: RepoGovernanceCodec,
});
export type RepoDetail = Infer<typeof RepoDetailView>;

const STATUS = {
  Proposed: 'proposed',
  Open: 'open',
  MarginCalled: 'margin_called',
  Unwound: 'unwound',
  Defaulted: 'defaulted',
} as const satisfies Record<RepoStatus['kind'], string>;

export const statusText = (s: RepoStatus): string => STATUS[s.kind];

export function repoItem(a: RepoAgreement): RepoItem {
  return {
    id: a.id,
    initiator: a.initiator,
    counterparty: a.counterparty,
    ...(a.custodian === undefined ? {} : { custodian: a.custodian }),
    cashDefinition: a.cashLeg.assetDefinitionId,
    cash: a.cashLeg.quantity,
    collateralDefinition: a.collateralLeg.assetDefinitionId,
    collateral: a.collateralLeg.quantity,
    rateBps: a.rateBps,
    haircutBps: a.haircutBps,
    maturityTimestampMs: a.maturityTimestampMs,
    status: statusText(a.status),
  };
}

export function repoDetail(a: RepoAgreement): RepoDetail {
  const { status, ...rest } = a;
  return {
    ...rest,
    ...(status.kind === 'MarginCalled' ? { marginDeadlineMs: status.deadlineMs } : {}),
    status: statusText(status),
  };
}
