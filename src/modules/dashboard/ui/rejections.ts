// A ledger rejection as a person reads it: the committed message keeps base units with their scale
// (`account cap 200 (window tx, units at scale 2) …`, consensus data); the dashboard shows the amounts at
// their definition's scale (`account cap 2.00 (window tx) …`), as the CLI does. The forms are those of
// every module folder's `rejection-forms.ts`, bundled as `torana:module-rejection-forms`
// (module-dashboards.mjs), so no dashboard file names a module; a message of no known form is shown as
// committed.

import forms from 'torana:module-rejection-forms';
import { addRejectionForms, readableRejection } from '../../../model/rejection-text.js';

for (const f of forms) addRejectionForms(f);

export { readableRejection };

/** A committed rejection (`result.reason` of a rejected transaction). */
export interface Rejection {
  code: string;
  message: string;
  instruction_index?: number;
}

/** Whether `v` has a rejection's code and message. */
export function isRejection(v: unknown): v is Rejection {
  const r = v as Partial<Rejection> | null;
  return typeof r === 'object' && r !== null && typeof r.code === 'string' && typeof r.message === 'string';
}
