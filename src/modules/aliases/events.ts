// What the aliases module's data events are about, for the event filters' fields (gateway/event-scope.ts):
// an account alias event is about its account, an asset alias event about its definition.

import type { ModuleEventScope } from '../../gateway/event-scope.js';

export const aliasEventScope: ModuleEventScope = (d) => {
  switch (d.kind) {
    case 'AccountAliasBound':
    case 'AccountAliasUnbound':
    case 'AccountAliasPrimarySet':
      return { account: d.account };
    case 'AssetAliasSet':
    case 'AssetAliasRemoved':
      return { definition: d.definition };
    default:
      return undefined;
  }
};
