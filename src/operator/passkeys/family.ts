// The operator passkey family (docs/operator.md "Passkeys"): WebAuthn sign-in to operator sessions. Not an
// application family; listed by node/families.ts only when `operator.passkeys_enabled`.

import type { RouteFamily } from '../../gateway/family.js';
import type { OperatorPasskeys } from './passkeys.js';
import { passkeyRoutes } from './routes.js';

export function operatorPasskeysFamily(passkeys: OperatorPasskeys): RouteFamily {
  return { name: 'operator-passkeys', app: false, routes: () => passkeyRoutes(passkeys) };
}
