// Aliases in place of ids (docs/data-model.md §Aliases): the module's naming (state/module-host.ts
// IdNaming), through which every route, list filter and event filter that takes an account or asset
// definition id also takes an alias. An account alias `label@domain` names its account; an asset alias
// `label` names its definition while its lease is live at the committed tip's block time.

import type { IdName } from '../../model/id-names.js';
import type { IdNaming } from '../../state/module-host.js';
import type { WorldState } from '../../state/world-state.js';
import { accountAliasProblem, assetAliasProblem } from './literal.js';
import { leaseLive, leaseStatus } from './rows.js';

function accountName(state: WorldState, text: string): IdName | undefined {
  if (accountAliasProblem(text) !== undefined) return undefined;
  return {
    field: 'account_alias',
    timed: false,
    id: () => state.tables.accountAlias.get(text)?.account,
  };
}

function definitionName(state: WorldState, text: string): IdName | undefined {
  if (assetAliasProblem(text) !== undefined) return undefined;
  return {
    field: 'asset_alias',
    timed: true,
    id: (timeMs) => {
      const row = state.tables.assetAlias.get(text);
      return row !== undefined && leaseLive(leaseStatus(row.lease, timeMs)) ? row.definition : undefined;
    },
  };
}

export const ALIAS_NAMING: IdNaming = {
  name: (state, kind, text) => (kind === 'account' ? accountName(state, text) : definitionName(state, text)),
  forms: { account: 'an account alias <label>@<domain>', definition: 'an asset alias' },
  // The routes' descriptions: "account id or alias", "either part may be an alias", … (the OpenAPI
  // document's text, unchanged since the routes were the core's).
  words: { one: 'alias', many: 'aliases', a: 'an alias' },
};
