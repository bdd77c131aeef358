// The operator passkey family (docs/operator.md "Passkeys"): WebAuthn sign-in to operator sessions. Not an
// application family; served only with `operator.passkeys_enabled` (the module's descriptor).

import type { RouteFamily } from '../../../gateway/family.js';
import type { OperatorPasskeys } from './passkeys.js';
import { passkeyRoutes } from './routes.js';

export function operatorPasskeysFamily(passkeys: OperatorPasskeys): RouteFamily {
  return {
    name: 'operator-passkeys',
    app: false,
    // Its rank in the serving order (docs/design/modules.md "Serving order"): where its routes have always been.
    servedAt: 510,
    routes: () => passkeyRoutes(passkeys),
  };
}
