// The telemetry module (docs/telemetry.md): this node's view of its peers (the p2p layer's state and the
// reports peers send over the peer channel), of the newest block's propagation, and a live SSE feed of
// both. Off the ledger: no instructions, tables, events or rejection codes; its pieces are its route
// family (with the gossip of peer reports and the propagation tracker, started and stopped by the
// family), its claim of the `TRNT` peer messages, its CLI commands, its SDK readers and its entries in
// the shared docs pages. Its configuration keys stay in the core's `[telemetry]` section, whose
// `profile` is the gateway's visibility gate of every family (docs/design/modules.md).

import { sectionValues } from '../../config/schema.js';
import type { LedgerModule, ModuleRouteEnv } from '../descriptor.js';
import { registerTelemetryCommands } from './commands.js';
import { telemetryConfig } from './config.js';
import { TELEMETRY_DOC_SECTIONS } from './docs.js';
import { telemetryFamily } from './family.js';
import { telemetryPort } from './node-port.js';
import { isReportMessage } from './report-codec.js';
import { TELEMETRY_SDK } from './sdk.js';

/** The family from the node's route env: its port and the `[telemetry]` keys. */
export function telemetryFamilyOf(env: ModuleRouteEnv) {
  const c = sectionValues(env.config, telemetryConfig);
  return telemetryFamily(env.deps, telemetryPort(env), {
    liveIntervalMs: c.liveIntervalMs,
    gossipIntervalMs: c.gossipIntervalMs,
    peerReports: {
      reportsMax: c.peerReportsMax,
      staleMs: c.peerReportStaleMs,
      minGapMs: c.peerReportMinGapMs,
    },
    onError: (e) => env.logError('telemetry propagation', e),
  });
}

export const telemetryModule: LedgerModule = {
  name: 'telemetry',
  instructions: {},
  tables: [],
  schemaTypes: [],
  events: [],
  rejections: [],
  // Not an application family: served whatever `app_api.enabled` says, gated by the telemetry profile.
  routes: telemetryFamilyOf,
  peerMessages: isReportMessage,
  sdk: TELEMETRY_SDK,
  cli: registerTelemetryCommands,
  docs: 'docs/telemetry.md',
  docSections: TELEMETRY_DOC_SECTIONS,
};
