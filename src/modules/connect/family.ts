// The Connect relay's family: an application family (`app_api.enabled`), built only with
// `connect.enabled` (descriptor.ts). Its relay lives as long as the server; a timer drops sessions left
// with no socket for `connect.idle_ms`.

import { randomBytes } from '../../crypto/random.js';
import type { RouteDeps } from '../../gateway/deps.js';
import type { RouteFamily } from '../../gateway/family.js';
import { createRelay, type RelayLimits } from './relay.js';
import { connectRoutes, installConnectSocket } from './routes.js';

/** How often idle sessions are looked for (at most; less when idle_ms is shorter). */
const SWEEP_EVERY_MS = 15_000;

export function connectFamily(deps: RouteDeps, limits: RelayLimits, now: () => number): RouteFamily {
  const relay = createRelay({ limits, now, random: randomBytes });
  let sweeper: NodeJS.Timeout | undefined;
  return {
    name: 'connect',
    app: true,
    // Its rank in the serving order (docs/design/modules.md "Serving order"): where its routes have always been.
    servedAt: 340,
    routes: () => connectRoutes(deps, relay),
    install: (app) => {
      installConnectSocket(app, deps, relay);
      sweeper = setInterval(() => relay.sweep(), Math.min(SWEEP_EVERY_MS, limits.idleMs));
      sweeper.unref();
    },
    close: async () => clearInterval(sweeper),
  };
}
