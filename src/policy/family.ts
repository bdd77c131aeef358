// The admission policy family: GET /v1/policy. Not an application family (it describes submission).

import type { RouteFamily } from '../gateway/family.js';
import type { PolicyView } from './policy.js';
import { policyRoutes } from './routes.js';

export function policyFamily(read: () => PolicyView): RouteFamily {
  return { name: 'policy', app: false, servedAt: 500, routes: () => policyRoutes(read) };
}
