// The aliases module's entries in the shared documentation pages (src/modules/docs.ts renders them into
// docs/app-api.md and docs/security.md).

import type { ModuleDocSections } from '../descriptor.js';

export const ALIAS_DOC_SECTIONS: ModuleDocSections = {
  'app-api-id-names': ['| `POST /v1/aliases/by_account` | `account_id` (account) |'],
  'security-writes': [
    '**Aliases in payments.** Routes and the CLI resolve an alias to an id before the client signs; a signed\n' +
      'instruction names ids only (an alias literal does not encode as an `AccountId`). A payment signed after\n' +
      'resolving an alias pays the account it resolved to, even if the alias moves (`TransferAccountAlias`)\n' +
      'before the payment commits. Test: `test/abuse/probe.ts` (`aliasSwitch`).',
  ],
};
