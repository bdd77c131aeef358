// The operator sign-in family: its routes over one session store. The store is made
// by the node (node/operator-sessions.ts) because the gateway's operator authentication verifies its
// tokens too; this family only serves the routes. Not an application family: always registered.

import type { RouteFamily } from '../gateway/family.js';
import { operatorSessionRoutes } from './routes.js';
import type { OperatorSessions } from './sessions.js';

export function operatorFamily(sessions: OperatorSessions): RouteFamily {
  return { name: 'operator', app: false, routes: () => operatorSessionRoutes(sessions) };
}
