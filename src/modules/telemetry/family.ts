// The telemetry route family (gateway/family.ts). Not an application family
// (`app: false`): the application families are accounts, domains, assets, NFTs, transactions and the
// ledger modules' families; telemetry is not among them, so it
// stays with `app_api.enabled = false`, gated by the telemetry profile like /status and /metrics.
// Peer reports (gossip.ts) are sent and taken while the family is installed. Served in its registry place
// (after the modules' families served in registry order): where its routes always were.

import type { RouteDeps } from '../../gateway/deps.js';
import type { RouteFamily } from '../../gateway/family.js';
import { TelemetryGossip } from './gossip.js';
import { PeerReports, type PeerReportsOptions } from './peer-reports.js';
import type { TelemetryPort } from './port.js';
import { type TelemetryRouteOptions, telemetryRoutes } from './routes.js';
import { PropagationTracker } from './tracker.js';

export interface TelemetryFamilyOptions extends TelemetryRouteOptions {
  /** `telemetry.gossip_interval_ms` (0: peer reports neither sent nor taken). */
  gossipIntervalMs: number;
  peerReports: PeerReportsOptions;
  onError(e: unknown): void;
}

export function telemetryFamily(
  d: RouteDeps,
  port: TelemetryPort,
  opts: TelemetryFamilyOptions,
): RouteFamily {
  const reports = new PeerReports(opts.peerReports, (id) => port.peers().some((p) => p.peerId === id));
  const tracker = new PropagationTracker(port, opts.onError, (h, hash, now) =>
    reports.sightings(h, hash, now),
  );
  const gossip = new TelemetryGossip(port, reports, opts.gossipIntervalMs);
  return {
    name: 'telemetry',
    app: false,
    // Its rank in the serving order (docs/design/modules.md "Serving order"): where its routes have always been.
    servedAt: 400,
    routes: () => telemetryRoutes(d, port, reports, tracker, opts),
    install: () => {
      tracker.start();
      gossip.start();
    },
    close: async () => {
      gossip.stop();
      tracker.stop();
    },
  };
}
