// The operator sign-in module (docs/operator.md): the routes that open, list, audit and revoke operator
// sessions by a challenge signed with an operator key, and operator passkeys (WebAuthn sign-in to the
// same sessions). Off the ledger: no instructions, tables, events or rejection codes; its pieces are its
// route families (each served at its rank, where their routes always were), the passkeys' ceremonies
// and credentials file in the data folder, and its docs. The session store itself is the gateway's (gateway/operator-sessions.ts):
// the operator authentication of every family, the MCP bridge and the modules' read routes that take
// sessions accept its tokens, so it stays core (docs/design/modules.md); the node hands it to this module.

import { type Config, sectionValues } from '../../config/schema.js';
import type { RouteFamily } from '../../gateway/family.js';
import type { LedgerModule, ModuleRouteEnv } from '../descriptor.js';
import { operatorPasskeysConfig } from './config.js';
import { OPERATOR_DOC_SECTIONS } from './docs.js';
import { operatorFamily } from './family.js';
import { OPERATOR_PASSKEY_ERRORS } from './gateway-errors.js';
import { operatorPasskeysFamily } from './passkeys/family.js';
import { passkeysOf } from './passkeys/from-env.js';

/** Whether the passkeys are served (`operator.passkeys_enabled`, config.ts). */
const passkeysOn = (config: Config): boolean => sectionValues(config, operatorPasskeysConfig).passkeysEnabled;

/** The sign-in family, and the passkeys' when `operator.passkeys_enabled`. */
export async function operatorFamiliesOf(env: ModuleRouteEnv): Promise<RouteFamily[]> {
  return [
    operatorFamily(env.operatorSessions),
    ...(passkeysOn(env.config) ? [operatorPasskeysFamily(await passkeysOf(env))] : []),
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
  // A passkey opens a session with no operator key, so a node without keys opens its operator routes
  // to session tokens while the passkeys are served.
  opensSessionsWithoutKeys: passkeysOn,
  gatewayErrors: OPERATOR_PASSKEY_ERRORS,
  docs: 'docs/operator.md',
  docSections: OPERATOR_DOC_SECTIONS,
};
