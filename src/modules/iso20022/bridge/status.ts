// Status codes and reasons (README "Status codes"). A bridge record moves ACTC (accepted technical
// validation: checked, signed and durably recorded) → ACSP (accepted by the pipeline: queued) → ACSC
// (committed in a block) or RJCT with a reason. Ledger rejection codes
// (src/model/rejections.ts) map to ISO ExternalStatusReason1Code values; a code without an ISO
// equivalent travels as a proprietary reason (StsRsnInf/Rsn/Prtry) holding the ledger code itself. The
// reason text (AddtlInf, the record's reason_text) shows amounts at their definition's scale.

import { readableRejection } from '../../../model/rejection-text.js';
import type { BridgeRecord } from './record.js';

export interface IsoReason {
  readonly code?: string;
  readonly proprietary?: string;
  readonly text: string;
}

/** Ledger rejection → pacs.002 reason (ExternalStatusReason1Code). */
const PAYMENT_REASONS: Readonly<Record<string, string>> = {
  account_not_found: 'AC01', // IncorrectAccountNumber: the account does not exist
  domain_not_found: 'AC01',
  insufficient_funds: 'AM04', // InsufficientFunds
  asset_not_found: 'AM04', // no holding is a zero balance
  invalid_amount: 'AM02', // NotAllowedAmount (scale)
  overflow: 'AM02',
  asset_definition_not_found: 'AM03', // NotAllowedCurrency: no asset for the currency any more
  same_account: 'BE01', // InconsistentWithEndCustomer: debtor and creditor are one account
  permission_denied: 'AG01', // TransactionForbidden: the bridge may not move these funds
  authority_not_found: 'AG01',
  debit_not_granted: 'AG01', // the debited account never granted the bridge CanTransferFrom
  transaction_expired: 'ED07', // as the reference node: the transaction expired before a block took it
};

/** Ledger rejection of a settlement leg → sese.024 reason (instruction index 0 = securities, 1 = cash). */
const SECURITIES_REASONS: Readonly<Record<string, readonly [string, string]>> = {
  insufficient_funds: ['LACK', 'MONY'], // lack of securities / insufficient money
  asset_not_found: ['LACK', 'MONY'],
  account_not_found: ['SAFE', 'CASH'], // invalid safekeeping / cash account
  asset_definition_not_found: ['DSEC', 'DCUR'], // unknown security / currency
  permission_denied: ['REFU', 'REFU'],
  debit_not_granted: ['REFU', 'REFU'],
};

/** The pacs.002 reason of a ledger rejection; its text is the rejection's message with amounts at scale. */
export function paymentReason(ledgerCode: string, message: string): IsoReason {
  const code = PAYMENT_REASONS[ledgerCode];
  const text = readableRejection(ledgerCode, message);
  return code === undefined ? { proprietary: ledgerCode, text } : { code, text };
}

/** The reason for an expiry in the queue (no block took the transaction in time). */
export function expiredReason(): IsoReason {
  return { code: 'ED07', text: 'the transaction expired in the ledger queue before a block took it' };
}

export function securitiesReason(ledgerCode: string, instructionIndex: number | undefined): string {
  const pair = SECURITIES_REASONS[ledgerCode];
  if (pair === undefined) return 'OTHR';
  return instructionIndex !== undefined && instructionIndex % 2 === 1 ? pair[1] : pair[0];
}

/** Order of pacs.002 codes: a status never moves back (an event arriving late is ignored). */
const RANK: Readonly<Record<string, number>> = { ACTC: 0, ACSP: 1, ACSC: 2, RJCT: 2 };

export function advances(from: string, to: string): boolean {
  return (RANK[to] ?? -1) > (RANK[from] ?? -1);
}

export function withReason(r: BridgeRecord, reason: IsoReason | undefined): BridgeRecord {
  const { reasonCode: _c, reasonProprietary: _p, reasonText: _t, ...rest } = r;
  if (reason === undefined) return rest;
  return {
    ...rest,
    ...(reason.code === undefined ? {} : { reasonCode: reason.code }),
    ...(reason.proprietary === undefined ? {} : { reasonProprietary: reason.proprietary.slice(0, 35) }),
    reasonText: reason.text.slice(0, 1024),
  };
}
