// The multisig module's entries in the shared documentation pages (src/modules/docs.ts renders them
// into docs/app-api.md and docs/security.md).

import type { ModuleDocSections } from '../descriptor.js';

export const MULTISIG_DOC_SECTIONS: ModuleDocSections = {
  'app-api-families': [
    '| `multisig` | `/v1/multisig/*`, `POST /v1/accounts/onboard/multisig` (docs/multisig.md) | — |',
  ],
  'app-api-id-names': [
    '| `/v1/multisig/*` (every route) | `multisig_account_alias` in place of `multisig_account_id` (docs/multisig.md) |',
  ],
  'security-writes': [
    '**Multisig proposal spam.** One signatory may have at most 64 live proposals (collecting signatures and\n' +
      'not expired) on one multisig account (`MULTISIG_PENDING_PER_PROPOSER_MAX` in `src/modules/multisig/model.ts`, a\n' +
      'ledger constant like the 64 instructions of a batch): the next `ProposeMultisig` is rejected with\n' +
      '`multisig_proposals_full` (R815) and nothing of its transaction is stored. Expired, executed and\n' +
      "canceled proposals do not count, and another signatory's proposals are not affected, so one member\n" +
      'cannot lock the others out. Before, one member stored proposals without bound. The count reads only\n' +
      "the proposer's proposals stored as collecting signatures and stores each expired one as `Expired` on the\n" +
      'way, so it costs the same with 12,800 old proposals as with 700 (a first version that read every\n' +
      'proposal of the multisig took 1.3 s for one transaction of 64 proposals at 12,800). `POST\n' +
      '/v1/multisig/proposals/list` answers one page (`limit`, `offset`) with the total. Terminal and expired\n' +
      'proposals stay stored until the multisig account is unregistered. Test: `test/abuse/probe.ts`\n' +
      '(`proposalSpam`).',
  ],
};
