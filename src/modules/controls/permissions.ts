// The transfer controls' permission token (docs/controls.md §Instructions): `CanManageTransferControls
// {asset_definition}` lets its holder set a definition's controls like the definition's owner. Declared
// into the core's permission tokens (model/permissions.ts) when this file is first imported, which the
// module's handlers do, before any block executes.

import { declarePermissionTokens } from '../../model/permissions.js';

declare module '../../model/permissions.js' {
  interface ModulePermissionTokens {
    /** Sets a definition's transfer controls, like its owner: `{ asset_definition }`. */
    CanManageTransferControls: unknown;
  }
}

export const MANAGE_CONTROLS = 'CanManageTransferControls';

declarePermissionTokens({ [MANAGE_CONTROLS]: 'asset_definition' });
