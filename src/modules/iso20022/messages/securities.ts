// Components shared by sese.023/.025 and colr.010/.012 (names per sese.023.001.09,
// sese.025.001.09, colr.010.001.05, colr.012.001.05; no schemas for these in test/iso20022/xsd).
// Only ISIN-identified securities are read (FinInstrmId/ISIN, SctyId/ISIN).

import type { DecimalValue } from '../validate/amount.js';
import { type Issues, optBic, optText, reqCode, reqIsin, reqQuantity } from '../validate/fields.js';
import type { XmlCursor } from '../xml/cursor.js';

/** DVP: deliver against payment; RVP: receive against payment; FOP: free of payment (either way). */
export type PaymentType = 'DVP' | 'RVP' | 'FOP';

export interface SecuritiesQuantity {
  /** Unit (number of units), FaceAmt (face amount) or AmtsdVal (amortised value). */
  readonly type: 'unit' | 'face_amount' | 'amortised_value';
  readonly value: DecimalValue;
}

export interface SettlementParties {
  /** Dpstry/Id/AnyBIC: the place of settlement (CSD). */
  readonly depositoryBic: string | undefined;
  /** Pty1/Id/AnyBIC: the settlement party next to the depository. */
  readonly partyBic: string | undefined;
  /** Pty1/SfkpgAcct/Id: that party's securities account. */
  readonly partySafekeepingAccount: string | undefined;
}

const MOVEMENTS: ReadonlySet<string> = new Set(['DELI', 'RECE']);
const PAYMENTS: ReadonlySet<string> = new Set(['APMT', 'FREE']);
const QUANTITY_CHOICES: ReadonlyArray<readonly [string, SecuritiesQuantity['type']]> = [
  ['Unit', 'unit'],
  ['FaceAmt', 'face_amount'],
  ['AmtsdVal', 'amortised_value'],
];

/** SctiesMvmntTp (DELI/RECE) and Pmt (APMT/FREE), combined into the payment type. */
export function readMovement(is: Issues, parent: XmlCursor) {
  const movement = reqCode(is, parent.child('SctiesMvmntTp'), MOVEMENTS) as 'DELI' | 'RECE' | undefined;
  const payment = reqCode(is, parent.child('Pmt'), PAYMENTS) as 'APMT' | 'FREE' | undefined;
  let paymentType: PaymentType | undefined;
  if (payment === 'FREE') paymentType = 'FOP';
  else if (payment === 'APMT' && movement !== undefined) paymentType = movement === 'DELI' ? 'DVP' : 'RVP';
  return { movement, payment, paymentType };
}

/** A FinancialInstrumentQuantity choice: exactly one of Unit, FaceAmt, AmtsdVal. */
export function readQuantity(is: Issues, choice: XmlCursor): SecuritiesQuantity | undefined {
  for (const [element, type] of QUANTITY_CHOICES) {
    const c = choice.child(element);
    if (c.exists) {
      const value = reqQuantity(is, c);
      return value === undefined ? undefined : { type, value };
    }
  }
  return is.missing(choice.child('Unit').path);
}

export function readIsin(is: Issues, securityId: XmlCursor): string | undefined {
  return reqIsin(is, securityId.child('ISIN'));
}

export function readParties(is: Issues, c: XmlCursor): SettlementParties | undefined {
  if (!c.exists) return undefined;
  return {
    depositoryBic: optBic(is, c.at('Dpstry', 'Id', 'AnyBIC')),
    partyBic: optBic(is, c.at('Pty1', 'Id', 'AnyBIC')),
    partySafekeepingAccount: optText(is, c.at('Pty1', 'SfkpgAcct', 'Id'), 35),
  };
}
