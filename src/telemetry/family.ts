// The telemetry route family (gateway/family.ts; app-families.md §6). Not an application family
// (`app: false`): issue 15 names the application families (accounts, domains, assets, NFTs, explorer,
// transactions, aliases, webhooks, ISO 20022, conference relays) and telemetry is not among them, so it
// stays with `app_api.enabled = false`, gated by the telemetry profile like /status and /metrics.

import type { RouteDeps } from '../gateway/deps.js';
import type { RouteFamily } from '../gateway/family.js';
import type { TelemetryPort } from './port.js';
import { type TelemetryRouteOptions, telemetryRoutes } from './routes.js';
import { PropagationTracker } from './tracker.js';

export function telemetryFamily(
  d: RouteDeps,
  port: TelemetryPort,
  opts: TelemetryRouteOptions & { onError(e: unknown): void },
): RouteFamily {
  const tracker = new PropagationTracker(port, opts.onError);
  return {
    name: 'telemetry',
    app: false,
    routes: () => telemetryRoutes(d, port, tracker, opts),
    install: () => tracker.start(),
    close: async () => tracker.stop(),
  };
}
