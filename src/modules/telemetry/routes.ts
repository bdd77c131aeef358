// The telemetry routes (docs/telemetry.md): this node's view of its peers, of the
// newest block's propagation, and a live SSE feed of both. Node-local (each node answers with its own
// view). Profiles (docs/configuration.md "Telemetry profiles"): peers-info and propagation are not gated;
// live needs the `metrics` capability (503 telemetry_profile_restricted under other profiles).
//
//   GET /v1/telemetry/peers-info    {items, total}; limit, offset
//   GET /v1/telemetry/propagation   {block, first_seen_at_ms?, last_seen_at_ms?, spread_ms?, peers_reported, reports}
//   GET /v1/telemetry/live          SSE `telemetry`: {at_ms, peers, propagation} every telemetry.live_interval_ms

import { Type } from 'typebox';
import type { RouteDeps } from '../../gateway/deps.js';
import { PageQuerystring, parsePage } from '../../gateway/list.js';
import type { FormatOffer } from '../../gateway/negotiate.js';
import { defineRoute, type RouteDef } from '../../gateway/route-table.js';
import { serveSse } from '../../gateway/sse.js';
import { respond, viewSchema } from '../../gateway/view.js';
import type { PeerReports } from './peer-reports.js';
import type { TelemetryPort } from './port.js';
import { liveFeed, peersInfo } from './snapshot.js';
import type { PropagationTracker } from './tracker.js';
import { PeersInfoView, PropagationView } from './views.js';

const TAGS = ['telemetry'];
const JSON_OR_CODEC: FormatOffer = { default: 'json', offers: ['json', 'codec'] };
const SSE_ONLY: FormatOffer = { default: 'sse', offers: ['sse'] };

export interface TelemetryRouteOptions {
  /** `telemetry.live_interval_ms`. */
  liveIntervalMs: number;
}

export function telemetryRoutes(
  d: RouteDeps,
  port: TelemetryPort,
  reports: PeerReports,
  tracker: PropagationTracker,
  opts: TelemetryRouteOptions,
): RouteDef[] {
  return [
    defineRoute({
      method: 'GET',
      url: '/v1/telemetry/peers-info',
      operationId: 'getTelemetryPeersInfo',
      summary:
        'This node and each configured peer with its connection state and its reports ({items, total}), as this node sees them',
      description:
        'This node comes first (`self: true`, with its gateway URL, configuration and connected peer count); ' +
        'every configured peer follows, connected or not, with its p2p address, announced role and the time ' +
        'it was last heard from, and its fresh reports sent over the p2p channel (newest first, each with its ' +
        'age): gateway URL, configuration and peer count come from the newest; absent before any report.',
      tags: TAGS,
      visibility: 'public',
      nodeLocal: true,
      formats: JSON_OR_CODEC,
      schema: { querystring: PageQuerystring, response: { 200: viewSchema(PeersInfoView) } },
      handler: (req, reply) => {
        const page = parsePage(req.query, d.limits);
        return respond(
          d.schema,
          req,
          reply,
          PeersInfoView,
          peersInfo(port, reports, page.offset, page.limit),
        );
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/telemetry/propagation',
      operationId: 'getTelemetryPropagation',
      summary: 'How the newest committed block spread, from what this node observed',
      description:
        'first_seen_at_ms is the creation time in the block header (its proposer), last_seen_at_ms the latest ' +
        "commit time reported: this node's own (absent for a block committed before the node started) and each " +
        "peer's whose fresh report lists the block with the same hash (peers_reported counts those). Each time " +
        "is its reporter's own clock, not corrected: spread_ms includes the clocks' skew.",
      tags: TAGS,
      visibility: 'public',
      nodeLocal: true,
      formats: JSON_OR_CODEC,
      schema: { response: { 200: viewSchema(PropagationView) } },
      handler: async (req, reply) => {
        await tracker.settled();
        return respond(d.schema, req, reply, PropagationView, tracker.propagation());
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/telemetry/live',
      operationId: 'streamTelemetry',
      summary:
        'Server-sent events `telemetry`: peers-info and propagation, one snapshot per telemetry.live_interval_ms',
      description:
        'One snapshot at once, then one per interval; ids grow strictly (node clock, ms), and a client ' +
        'resuming with Last-Event-ID continues with the current snapshot (snapshots have no history).',
      tags: TAGS,
      visibility: 'metrics',
      nodeLocal: true,
      formats: SSE_ONLY,
      schema: { response: { 200: Type.String({ description: 'text/event-stream' }) } },
      handler: (req, reply) => serveSse(req, reply, liveFeed(port, reports, tracker, opts.liveIntervalMs)),
    }),
  ];
}
