// The operator sign-in family: its routes over one session store. The store is made
// by the node (node/operator-sessions.ts) because the gateway's operator authentication verifies its
// tokens too; this family only serves the routes. Not an application family: always registered.

import type { RouteFamily } from '../../gateway/family.js';
import type { OperatorSessions } from '../../gateway/operator-sessions.js';
import { operatorSessionRoutes } from './routes.js';

export function operatorFamily(sessions: OperatorSessions): RouteFamily {
  return {
    name: 'operator',
    app: false,
    // Its rank in the serving order (docs/design/modules.md "Serving order"): where its routes have always been.
    servedAt: 440,
    routes: () => operatorSessionRoutes(sessions),
  };
}
