// The operator passkey family (docs/operator.md "Passkeys"): WebAuthn sign-in to operator sessions. Not an
// application family; served only with `operator.passkeys_enabled` (the module's descriptor).

import type { RouteFamily } from '../../../gateway/family.js';
import type { OperatorPasskeys } from './passkeys.js';
import { passkeyRoutes } from './routes.js';

export function operatorPasskeysFamily(passkeys: OperatorPasskeys): RouteFamily {
  // Served right after the policy family (GET /v1/policy), where its routes always were.
  return {
    name: 'operator-passkeys',
    app: false,
    servedAfter: 'policy',
    routes: () => passkeyRoutes(passkeys),
  };
}
