// This module's committed rejection messages that carry base units, as a person reads them (amounts at
// their definition's scale; src/model/rejection-text.ts). The committed text itself never changes.
import { atScale, type RejectionForms } from '../../model/rejection-text.js';

export const conferenceRejectionForms: RejectionForms = {
  // exec-billing.ts checkBilled()
  conference_billing_mismatch: [
    [
      /^billedGas must be (\d+) units at scale (\d+) (\(.*\))$/,
      (m) => `billedGas must be ${atScale(m[1]!, Number(m[2]))} ${m[3]}`,
    ],
  ],
};
