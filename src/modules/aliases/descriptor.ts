// The aliases module (docs/data-model.md §Aliases): account aliases `label@domain` and asset definition
// aliases `label` (with expiring leases), bound by instructions, resolved in place of ids everywhere.

import type { DataEvent } from '../../model/events.js';
import type { RejectionCode } from '../../model/rejections.js';
import type { LedgerModule } from '../descriptor.js';
import {
  registerAccountAlias,
  removeAccountAlias,
  setPrimaryAccountAlias,
  transferAccountAlias,
  unbindAccountAliases,
  unbindDomainAliases,
} from './account-handlers.js';
import {
  removeAssetAlias,
  removeDefinitionAliases,
  renewAssetAlias,
  setAssetAlias,
} from './asset-handlers.js';
import { ALIAS_ID_NAMES, registerAliasCommands } from './commands.js';
import { ALIAS_DOC_SECTIONS } from './docs.js';
import { aliasEventScope } from './events.js';
import { ALIAS_NAMING } from './names.js';
import { aliasReadPort } from './reads.js';
import { aliasFamily } from './routes.js';
import { ALIAS_SDK } from './sdk.js';
import { aliasesWire } from './wire.js';

export const aliasesModule: LedgerModule = {
  name: 'aliases',
  instructions: {
    RegisterAccountAlias: registerAccountAlias,
    TransferAccountAlias: transferAccountAlias,
    RemoveAccountAlias: removeAccountAlias,
    SetPrimaryAccountAlias: setPrimaryAccountAlias,
    SetAssetAlias: setAssetAlias,
    RenewAssetAlias: renewAssetAlias,
    RemoveAssetAlias: removeAssetAlias,
  },
  tables: (aliasesWire.tables ?? []).map((t) => t.name),
  schemaTypes: aliasesWire.schemaTypes ?? [],
  events: Object.keys(aliasesWire.events ?? {}) as DataEvent['kind'][],
  eventScope: aliasEventScope,
  rejections: Object.keys(aliasesWire.rejections ?? {}) as RejectionCode[],
  // An unregistered domain, account or definition takes its aliases with it.
  removal: {
    drop: (x, removed) => {
      if (removed.kind === 'domain') unbindDomainAliases(x, removed.id);
      else if (removed.kind === 'account') unbindAccountAliases(x, removed.id);
      else removeDefinitionAliases(x, removed.id);
    },
  },
  idNaming: ALIAS_NAMING,
  routes: (env) => aliasFamily(aliasReadPort(env.state, env.deps.ports.chain), env.deps),
  sdk: ALIAS_SDK,
  cli: registerAliasCommands,
  cliIdNames: ALIAS_ID_NAMES,
  docs: 'docs/data-model.md',
  docSections: ALIAS_DOC_SECTIONS,
};
