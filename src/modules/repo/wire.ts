// The repo agreements module's wire declarations (docs/repo.md): its instruction and event variants,
// rejection meanings, weights, stored row type and table. Their tags, numbers and ids are in
// model/tags.ts; importing this file (src/modules/registry.ts does) declares them into the core's codecs
// and tables.

import { option } from '../../codec/compound.js';
import { bool, u32, varuint } from '../../codec/primitives.js';
import { AccountId, AssetDefinitionId } from '../../model/ids.js';
import { NumericCodec } from '../../model/numeric.js';
import { row, sized } from '../../model/weights.js';
import { declareModuleWire } from '../../state/module-wire.js';
import { type TableDef, tableDef } from '../../state/tables.js';
import {
  agreementProblem,
  type RepoAgreement,
  RepoAgreementCodec,
  RepoId,
  RepoLegCodec,
  RepoReference,
  RepoStatusCodec,
} from './model.js';

/** One contiguous block. Quantities are decimals at (or exactly convertible to) their definitions' scales. */
const INSTRUCTIONS = {
  /** Proposes `repoAgreementId(authority, reference)`: the authority borrows the cash leg against the collateral leg. */
  InitiateRepo: {
    reference: RepoReference,
    counterparty: AccountId,
    custodian: option(AccountId),
    cashLeg: RepoLegCodec,
    collateralLeg: RepoLegCodec,
    rateBps: u32,
    haircutBps: u32,
    maturityTimestampMs: varuint,
    /** Units of the cash definition one unit of the collateral definition is worth. */
    collateralPrice: NumericCodec,
    marginWindowMs: varuint,
  },
  /** The counterparty accepts: the collateral moves to escrow and the cash to the initiator. */
  AcceptRepo: { id: RepoId },
  /** The price authority sets the price of a collateral definition for the agreement. */
  SetRepoPrice: { id: RepoId, assetDefinition: AssetDefinitionId, price: NumericCodec },
  /** Anyone: recomputes the requirement against the collateral's value (a margin call when short). */
  CheckRepoMargin: { id: RepoId },
  /** The initiator adds `quantity` of the collateral definition to escrow. */
  TopUpRepoMargin: { id: RepoId, quantity: NumericCodec },
  /** The initiator puts a new collateral leg in escrow and takes the old one back. */
  SubstituteRepoCollateral: { id: RepoId, collateralLeg: RepoLegCodec },
  /** Either party asks to unwind early (or withdraws a proposal); the other's UnwindRepo settles. */
  UnwindRepo: { id: RepoId },
  /** Run only by the agreement's scheduled run: unwinds at maturity, or defaults an unmet margin call. */
  SettleRepo: { id: RepoId },
};

const EVENTS = {
  RepoInitiated: {
    id: RepoId,
    initiator: AccountId,
    counterparty: AccountId,
    cashDefinition: AssetDefinitionId,
    cash: NumericCodec,
    collateralDefinition: AssetDefinitionId,
    collateral: NumericCodec,
    maturityMs: varuint,
  },
  RepoAccepted: { id: RepoId, escrow: AccountId, initiatedMs: varuint },
  RepoPriceSet: { id: RepoId, assetDefinition: AssetDefinitionId, price: NumericCodec },
  /** `required` and `value` at the cash scale (rounded up and down); `met` compares them exactly. */
  RepoMarginChecked: { id: RepoId, required: NumericCodec, value: NumericCodec, met: bool },
  /** The collateral now in escrow (after a top-up, or a substitution). */
  RepoCollateralChanged: {
    id: RepoId,
    assetDefinition: AssetDefinitionId,
    quantity: NumericCodec,
    substituted: bool,
  },
  RepoUnwindRequested: { id: RepoId, by: AccountId },
  /** Cash and interest back to the lender and collateral to the borrower, or (defaulted) collateral to the lender. */
  RepoSettled: {
    id: RepoId,
    defaulted: bool,
    atMaturity: bool,
    cash: NumericCodec,
    interest: NumericCodec,
    collateralDefinition: AssetDefinitionId,
    collateral: NumericCodec,
    collateralTo: AccountId,
  },
  RepoStatusChanged: { id: RepoId, status: RepoStatusCodec },
};

declare module '../../model/instructions.js' {
  interface InstructionVariants extends RepoInstructionVariants {}
}
declare module '../../model/events.js' {
  interface DataEventVariants extends RepoEventVariants {}
}
declare module '../../state/tables.js' {
  interface TableRows {
    repoAgreement: RepoAgreement;
  }
}
type RepoInstructionVariants = typeof INSTRUCTIONS;
type RepoEventVariants = typeof EVENTS;

export const REPO_TABLES = [
  tableDef<RepoAgreement>('repoAgreement', RepoAgreementCodec, {
    idOf: (v) => v.id,
    check: (_id, v) => agreementProblem(v),
  }),
] as const;

export const repoWire = declareModuleWire({
  name: 'repo',
  instructions: INSTRUCTIONS,
  events: EVENTS,
  // 880-899; texts are stable (a rejection's message is in the committed result).
  rejections: {
    repo_invalid:
      'a field is out of bounds: quantities > 0 at the scales of their definitions, rate, haircut, window or maturity',
    repo_not_found: 'no repo agreement with this id',
    repo_exists: 'the initiator already initiated an agreement under this reference',
    repo_invalid_state: 'the agreement is not in a status that allows this instruction',
    repo_margin_short: 'the collateral would be worth less than the requirement cash × (1 + haircut)',
    repo_no_price: 'the agreement holds no price for this collateral definition',
    repo_not_configured: 'the repo_escrow_account parameter names no account',
    repo_escrow_locked: 'the repo escrow account moves only through the repo instructions',
    repo_settle_not_allowed: 'only the scheduled run of the agreement settles it',
  },
  weights: {
    // Writes an agreement (leg metadata walked once).
    InitiateRepo: sized(80, 0.1),
    // Two transfers (each with the transfer checks), the agreement and its scheduled run.
    AcceptRepo: row(200),
    SetRepoPrice: row(40),
    CheckRepoMargin: row(60),
    TopUpRepoMargin: row(120),
    // Two transfers in opposite directions.
    SubstituteRepoCollateral: sized(200, 0.1),
    UnwindRepo: row(200),
    SettleRepo: row(200),
  },
  schemaTypes: [RepoAgreementCodec],
  tables: REPO_TABLES as unknown as readonly TableDef<never>[],
  docs: 'docs/repo.md',
});
