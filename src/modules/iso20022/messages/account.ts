// A party's account, AccountIdentification4Choice of pacs.008/pacs.009: an IBAN or another id
// (`Othr/Id`, Max34Text). The bridge requires the IBAN by default;
// extraction reads whichever is present and checks it, and resolution
// (resolve.ts) decides whether an absent IBAN is acceptable: only when the operator set
// `iso20022.allow_non_iban_accounts` (docs/iso20022.md "Accounts without an IBAN").

import { type Issues, optIban, optText } from '../validate/fields.js';
import type { XmlCursor } from '../xml/cursor.js';

/** ISO 20022 GenericAccountIdentification1/Id. */
const OTHER_ID_CHARS_MAX = 34;

export interface AccountRead {
  readonly iban: string | undefined;
  readonly otherId: string | undefined;
  readonly ibanPath: string;
  readonly otherIdPath: string;
}

/** Reads `<element>/Id/IBAN` or `<element>/Id/Othr/Id` of a transaction (both optional here). */
export function readAccount(is: Issues, tx: XmlCursor, element: 'DbtrAcct' | 'CdtrAcct'): AccountRead {
  const ibanAt = tx.at(element, 'Id', 'IBAN');
  const otherAt = tx.at(element, 'Id', 'Othr', 'Id');
  return {
    iban: optIban(is, ibanAt),
    otherId: optText(is, otherAt, OTHER_ID_CHARS_MAX),
    ibanPath: ibanAt.path,
    otherIdPath: otherAt.path,
  };
}
