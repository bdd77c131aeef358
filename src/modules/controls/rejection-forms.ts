// This module's committed rejection messages that carry base units, as a person reads them (amounts at
// their definition's scale; src/model/rejection-text.ts). The committed text itself never changes.
import { atScale, type RejectionForms } from '../../model/rejection-text.js';

export const controlsRejectionForms: RejectionForms = {
  // check.ts exceeded()
  transfer_cap_exceeded: [
    [
      /^(\w+) cap (\d+) \(window (\w+), units at scale (\d+)\) of (.+) exceeded by (.+): (\d+) with this transfer$/,
      (m) => {
        const s = Number(m[4]);
        return `${m[1]} cap ${atScale(m[2]!, s)} (window ${m[3]}) of ${m[5]} exceeded by ${m[6]}: ${atScale(m[7]!, s)} with this transfer`;
      },
    ],
  ],
};
