// Collateral substitution (subset; names per colr.010.001.05 and colr.012.001.05, no schemas in
// test/iso20022/xsd). ISO splits the substitution in two messages:
//   colr.010 CollateralSubstitutionRequest: the collateral returned (CollSbstitnRtr) and the
//            collateral offered instead (CollSbstitnDlvr), each with collateral ids, ISINs and
//            quantities;
//   colr.012 CollateralSubstitutionConfirmation: confirms (ConfTp CREL/CRET) the request named by
//            SbstitnConf/CollSbstitnReqId. It carries no collateral lines of its own.
// Both share TxId and the obligation (Oblgtn: PtyA, PtyB, ValtnDt). Cash and other collateral
// blocks are not read.

import {
  type IsoAmount,
  type Issues,
  optBic,
  optCode,
  optText,
  reqAmount,
  reqCode,
  reqText,
} from '../validate/fields.js';
import type { XmlCursor } from '../xml/cursor.js';
import { type ExtractContext, must } from './common.js';
import type { AppHeader } from './head001.js';
import { choiceDate } from './pain001.js';
import { readIsin, readQuantity, type SecuritiesQuantity } from './securities.js';

export const COLR010_ROOT = 'CollSbstitnReq';
export const COLR012_ROOT = 'CollSbstitnConf';
const CONFIRMATION_TYPES: ReadonlySet<string> = new Set(['CREL', 'CRET']);
const SEQUENCES: ReadonlySet<string> = new Set(['INIT', 'UPDD']);

export interface Obligation {
  /** Oblgtn/PtyA/AnyBIC and Oblgtn/PtyB/AnyBIC, when the parties are identified by BIC. */
  readonly partyABic: string | undefined;
  readonly partyBBic: string | undefined;
  readonly collateralAccountId: string | undefined;
  readonly valuationDate: string;
}

export interface SecuritiesCollateral {
  readonly collateralId: string | undefined;
  readonly isin: string;
  readonly quantity: SecuritiesQuantity;
}

export interface CollateralSide {
  readonly sequence: string | undefined;
  readonly requirement: IsoAmount;
  readonly substitutionType: string | undefined;
  readonly securities: readonly SecuritiesCollateral[];
}

export interface Colr010Message {
  readonly kind: 'colr010';
  readonly messageDefinitionId: string;
  readonly appHeader: AppHeader | undefined;
  readonly transactionId: string;
  readonly obligation: Obligation;
  /** CollSbstitnRtr: the collateral to be returned. */
  readonly returned: CollateralSide;
  /** CollSbstitnDlvr: the collateral offered in its place. */
  readonly offered: CollateralSide | undefined;
}

export interface Colr012Message {
  readonly kind: 'colr012';
  readonly messageDefinitionId: string;
  readonly appHeader: AppHeader | undefined;
  readonly transactionId: string;
  readonly obligation: Obligation;
  readonly requestId: string;
  readonly responseId: string | undefined;
  /** CREL: collateral released; CRET: collateral returned. */
  readonly confirmationType: 'CREL' | 'CRET';
  readonly comment: string | undefined;
}

function readObligation(is: Issues, c: XmlCursor): Obligation | undefined {
  const valuationDate = choiceDate(is, c.child('ValtnDt'));
  const partyABic = optBic(is, c.at('PtyA', 'AnyBIC'));
  const partyBBic = optBic(is, c.at('PtyB', 'AnyBIC'));
  if (!c.child('PtyA').exists) is.missing(c.child('PtyA').path);
  if (!c.child('PtyB').exists) is.missing(c.child('PtyB').path);
  const collateralAccountId = optText(is, c.at('CollAcctId', 'Id'));
  return valuationDate === undefined
    ? undefined
    : { partyABic, partyBBic, collateralAccountId, valuationDate };
}

function readSide(is: Issues, c: XmlCursor) {
  const requirementAt = c.child('SbstitnRqrmnt');
  const securities = c.all('SctiesColl').map((s) => ({
    collateralId: optText(is, s.child('CollId')),
    isin: readIsin(is, s.child('SctyId')),
    quantity: readQuantity(is, s.child('Qty')),
  }));
  return {
    sequence: reqCode(is, c.child('CollSbstitnSeq'), SEQUENCES),
    requirement: reqAmount(is, requirementAt, requirementAt.attr('Ccy')),
    substitutionType: optCode(is, c.child('CollSbstitnTp')),
    securities,
  };
}

function finishSide(side: ReturnType<typeof readSide>): CollateralSide {
  return {
    ...side,
    requirement: must(side.requirement),
    securities: side.securities.map((s) => ({ ...s, isin: must(s.isin), quantity: must(s.quantity) })),
  };
}

export function extractColr010(ctx: ExtractContext): Colr010Message | undefined {
  const { root, issues: is } = ctx;
  const transactionId = reqText(is, root.child('TxId'));
  const obligation = readObligation(is, root.child('Oblgtn'));
  const returnedAt = root.child('CollSbstitnRtr');
  const returned = returnedAt.exists ? readSide(is, returnedAt) : is.missing(returnedAt.path);
  const offeredAt = root.child('CollSbstitnDlvr');
  const offered = offeredAt.exists ? readSide(is, offeredAt) : undefined;
  if (!is.ok) return undefined;
  return {
    kind: 'colr010',
    messageDefinitionId: ctx.messageDefinitionId,
    appHeader: ctx.appHeader,
    transactionId: must(transactionId),
    obligation: must(obligation),
    returned: finishSide(must(returned)),
    offered: offered === undefined ? undefined : finishSide(offered),
  };
}

export function extractColr012(ctx: ExtractContext): Colr012Message | undefined {
  const { root, issues: is } = ctx;
  const transactionId = reqText(is, root.child('TxId'));
  const obligation = readObligation(is, root.child('Oblgtn'));
  const conf = root.child('SbstitnConf');
  const requestId = reqText(is, conf.child('CollSbstitnReqId'));
  const responseId = optText(is, conf.child('CollSbstitnRspnId'));
  const confirmationType = reqCode(is, conf.child('ConfTp'), CONFIRMATION_TYPES) as
    | 'CREL'
    | 'CRET'
    | undefined;
  const comment = optText(is, conf.child('Cmnt'), 140);
  if (!is.ok) return undefined;
  return {
    kind: 'colr012',
    messageDefinitionId: ctx.messageDefinitionId,
    appHeader: ctx.appHeader,
    transactionId: must(transactionId),
    obligation: must(obligation),
    requestId: must(requestId),
    responseId,
    confirmationType: must(confirmationType),
    comment,
  };
}
