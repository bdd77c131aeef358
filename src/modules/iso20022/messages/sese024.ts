// sese.024 SecuritiesSettlementTransactionStatusAdvice (read per sese.024.001.10; subset): the
// transaction ids (TxId/AcctOwnrTxId required) and the processing, matching and settlement
// statuses. Each status is a choice; we report the chosen element's name and its first reason
// code (`<Rjctd><Rsn><Cd><Cd>SAFE</Cd></Cd></Rsn></Rjctd>`), or NORE for NoSpcfdRsn.

import { type Issues, optText, reqText } from '../validate/fields.js';
import type { XmlCursor } from '../xml/cursor.js';
import { type ExtractContext, must } from './common.js';
import type { AppHeader } from './head001.js';

export const SESE024_ROOT = 'SctiesSttlmTxStsAdvc';

export interface SecuritiesStatus {
  /** The chosen element: AckdAccptd, PdgPrcg, Rjctd, Rpr, Canc, … / Mtchd, Umtchd / Pdg, Flng. */
  readonly status: string;
  readonly reasonCode: string | undefined;
}

export interface Sese024Message {
  readonly kind: 'sese024';
  readonly messageDefinitionId: string;
  readonly appHeader: AppHeader | undefined;
  readonly accountOwnerTransactionId: string;
  readonly accountServicerTransactionId: string | undefined;
  readonly processingStatus: SecuritiesStatus | undefined;
  readonly matchingStatus: SecuritiesStatus | undefined;
  readonly settlementStatus: SecuritiesStatus | undefined;
}

function readStatus(is: Issues, c: XmlCursor): SecuritiesStatus | undefined {
  const status = c.childNames()[0];
  if (status === undefined) return undefined;
  const chosen = c.child(status);
  const reasons = [
    chosen.child('NoSpcfdRsn'),
    chosen.at('Rsn', 'Cd', 'Cd'),
    chosen.at('Rsn', 'Cd', 'Prtry', 'Id'),
  ];
  const reason = reasons.find((r) => r.exists);
  return { status, reasonCode: reason === undefined ? undefined : optText(is, reason) };
}

export function extractSese024(ctx: ExtractContext): Sese024Message | undefined {
  const { root, issues: is } = ctx;
  const accountOwnerTransactionId = reqText(is, root.at('TxId', 'AcctOwnrTxId'));
  const accountServicerTransactionId = optText(is, root.at('TxId', 'AcctSvcrTxId'));
  const processingStatus = readStatus(is, root.child('PrcgSts'));
  const matchingStatus = readStatus(is, root.child('MtchgSts'));
  const settlementStatus = readStatus(is, root.child('SttlmSts'));
  if (processingStatus === undefined && matchingStatus === undefined && settlementStatus === undefined) {
    is.missing(root.child('PrcgSts').path);
  }
  if (!is.ok) return undefined;
  return {
    kind: 'sese024',
    messageDefinitionId: ctx.messageDefinitionId,
    appHeader: ctx.appHeader,
    accountOwnerTransactionId: must(accountOwnerTransactionId),
    accountServicerTransactionId,
    processingStatus,
    matchingStatus,
    settlementStatus,
  };
}
