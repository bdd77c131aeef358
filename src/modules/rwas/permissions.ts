// The RWA lots' permission token (docs/rwas.md §Permissions): `CanControlRwa {rwa}` lets its holder act
// on a lot as its controller (freeze, unfreeze, hold, release, forced transfer, set controls). Declared
// into the core's permission tokens (model/permissions.ts) when this file is first imported, which the
// module's wire does, before any block executes.

import { declarePermissionTokens } from '../../model/permissions.js';

declare module '../../model/permissions.js' {
  interface ModulePermissionTokens {
    /** Acts on a lot as its controller: `{ rwa }`. */
    CanControlRwa: unknown;
  }
}

export const CONTROL_RWA = 'CanControlRwa';

declarePermissionTokens({ [CONTROL_RWA]: 'rwa' });
