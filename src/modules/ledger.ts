// The features that have no module folder yet (docs/design/modules.md "Not yet migrated"): their pieces
// still live in the core folders (state/exec-*.ts, model/*.ts, src/<family>/). One descriptor stands for
// them so that the registry's claim checks cover every instruction tag and table id; each feature moved
// into a folder of its own takes its claims out of this list.

import { LEDGER_HANDLERS } from '../state/handlers.js';
import type { TableName } from '../state/keys.js';
import type { LedgerModule } from './descriptor.js';

const TABLES: readonly TableName[] = [
  'domain',
  'account',
  'assetDefinition',
  'asset',
  'nft',
  'role',
  'accountPermissions',
  'accountRoles',
  'peer',
  'upgrade',
  'parameters',
  'meta',
  'nullifier',
  'shieldedPool',
];

export const ledgerModule: LedgerModule = {
  name: 'ledger',
  instructions: LEDGER_HANDLERS,
  tables: TABLES,
  schemaTypes: [],
  events: [],
  rejections: [],
  docs: 'docs/data-model.md',
};
