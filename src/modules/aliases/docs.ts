// The aliases module's entries in the shared documentation pages (src/modules/docs.ts renders them into
// docs/app-api.md and docs/security.md).

import type { ModuleDocSections } from '../descriptor.js';

export const ALIAS_DOC_SECTIONS: ModuleDocSections = {
  'app-api-names': [
    '**Aliases** (docs/data-model.md §Aliases): an account alias `label@domain` names an account, a live\n' +
      'asset alias `label` a definition, and an asset may be `<definition or asset alias>#<account id or\n' +
      'account alias>` (`rose#alice@wonderland`). An asset alias names its definition only while its lease is\n' +
      'not expired (judged at the committed tip’s block time); an unbound or expired alias names nothing (404).\n' +
      'A 404 names it by `account_alias` or `asset_alias`.',
    '`test/aliases/everywhere.test.ts` walks the OpenAPI document and checks every path or query parameter\n' +
      'naming an account, a definition or an asset (by name: `…account…`, `authority`, `owned_by`, `participant`,\n' +
      '`…definition…`, `asset…`; `{id}` after `accounts`, `definitions`, `asset-definitions` or `assets`): each\n' +
      'must answer the alias as the id, and an unbound alias with 404 naming the alias. A new route with such a\n' +
      'parameter is checked the day it is registered; a route the walk cannot call alone (another path\n' +
      'parameter, a method other than GET or POST; today only the signalling offer route, covered by its\n' +
      'own route test) is listed in the test’s diagnostics.',
  ],
  'app-api-id-names': [
    '| `POST /v1/aliases/by_account` | `account_id` (account) |',
    '| CLI `alias register / transfer / ls` | the account (account) |',
  ],
  'dashboard-additions': [
    '| aliases (`dashboard.ts`) | account page: its aliases (`POST /v1/aliases/by_account`: alias, index, primary); search: an account alias (`label@domain`: `POST /v1/aliases/resolve`) opens its account, an asset alias (`label`: `POST /v1/assets/aliases/resolve`) its definition (an asset alias and a domain may share a name: both are listed) |',
  ],
  'security-writes': [
    '**Aliases in payments.** Routes and the CLI resolve an alias to an id before the client signs; a signed\n' +
      'instruction names ids only (an alias literal does not encode as an `AccountId`). A payment signed after\n' +
      'resolving an alias pays the account it resolved to, even if the alias moves (`TransferAccountAlias`)\n' +
      'before the payment commits. Test: `test/abuse/probe.ts` (`aliasSwitch`).',
  ],
};
