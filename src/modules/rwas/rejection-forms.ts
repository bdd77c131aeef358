// This module's committed rejection messages that carry base units, as a person reads them (amounts at
// their definition's scale; src/model/rejection-text.ts). The committed text itself never changes.
import { atScale, type RejectionForms } from '../../model/rejection-text.js';

export const rwasRejectionForms: RejectionForms = {
  // handlers.ts: movable(), holdRwa, releaseRwa
  rwa_quantity_unavailable: [
    [
      /^lot (.+) holds (\d+) (free|unheld|held) units at scale (\d+)$/,
      (m) => `lot ${m[1]} holds ${atScale(m[2]!, Number(m[4]))} ${m[3]}`,
    ],
  ],
};
