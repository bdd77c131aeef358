// The operator sign-in module (docs/operator.md): the routes that open, list, audit and revoke operator
// sessions by a challenge signed with an operator key, and operator passkeys (WebAuthn sign-in to the
// same sessions). Off the ledger: no instructions, tables, events or rejection codes; its pieces are its
// route families (each served at its rank, where their routes always were), the passkeys' ceremonies
// and credentials file in the data folder, and its docs. The session store itself is the gateway's (gateway/operator-sessions.ts):
// the operator authentication of every family, the MCP bridge and the modules' read routes that take
// sessions accept its tokens, so it stays core (docs/design/modules.md); the node hands it to this module.

import type { RouteFamily } from '../../gateway/family.js';
import type { LedgerModule, ModuleRouteEnv } from '../descriptor.js';
import { operatorFamily } from './family.js';
import { operatorPasskeysFamily } from './passkeys/family.js';
import { passkeysOf } from './passkeys/from-env.js';

/** The sign-in family, and the passkeys' when `operator.passkeys_enabled`. */
export async function operatorFamiliesOf(env: ModuleRouteEnv): Promise<RouteFamily[]> {
  return [
    operatorFamily(env.operatorSessions),
    ...(env.config.operator.passkeysEnabled ? [operatorPasskeysFamily(await passkeysOf(env))] : []),
  ];
}

export const operatorModule: LedgerModule = {
  name: 'operator',
  instructions: {},
  tables: [],
  schemaTypes: [],
  events: [],
  rejections: [],
  // Not an application family: served whatever `app_api.enabled` says.
  routes: operatorFamiliesOf,
  docs: 'docs/operator.md',
};
