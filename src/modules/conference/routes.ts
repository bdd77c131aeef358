// The conference read routes (docs/conference.md "Routes and CLI"):
// one route table for relays and calls. The signalling routes
// have their own table. Relay telemetry needs the app API and the telemetry features (config
// `conference.enabled` and `conference.relay_telemetry`: switched off, the routes are not registered,
// answer 404 and are absent from the OpenAPI document) and is a `status` route of the telemetry
// profile (503 `telemetry_profile_restricted` under `disabled`, like /status).
//
//   GET /v1/conference/relays                 {items, total}; limit, offset, filter, sort, region, available
//   GET /v1/conference/relays/health          totals and one page of per-relay latest health
//   GET /v1/conference/relays/events          SSE of relay registrations, manifest updates, health reports
//   GET /v1/conference/relays/{relay_id}      one relay, or 404 conference_relay_not_found
//   GET /v1/conference/calls                  {items, total}; limit, offset, filter, sort, domain, status
//   GET /v1/conference/calls/{call_id}        one call, or 404 conference_not_found
//   GET /v1/conference/pool                   the shielded pool tree (leaves, roots) for note spends

import { Type } from 'typebox';
import type { GatewayApp } from '../../gateway/context.js';
import type { RouteDeps } from '../../gateway/deps.js';
import { EventHub, SharedEvent } from '../../gateway/event-hub.js';
import { PageQuerystring, parsePage } from '../../gateway/list.js';
import { defineRoute, type RouteDef } from '../../gateway/route-table.js';
import { answerList, JSON_OR_CODEC, queryInput } from '../../gateway/routes/app-lists.js';
import { pathId } from '../../gateway/routes/app-params.js';
import type { SignedRequests } from '../../gateway/signed-request.js';
import { serveSse } from '../../gateway/sse.js';
import { respond, viewSchema } from '../../gateway/view.js';
import { callDetail, callSummary, relayHealthItem, relayItem, relayStatus } from './items.js';
import { CallId, RelayId } from './model.js';
import { CallListQuery, CallParams, RelayEventsQuery, RelayListQuery, RelayParams } from './params.js';
import type { ConferenceReadPort } from './read-port.js';
import { type RelayEventKind, relayEventMatcher } from './relay-events.js';
import { checkViewer, optionalSignature, viewerOf } from './viewer.js';
import {
  CallListView,
  CallSummaryView,
  CallView,
  RelayHealthView,
  RelayListView,
  RelayView,
  ShieldedPoolView,
} from './views.js';

const TAGS = ['conference'];
const TELEMETRY_NOTE =
  'Relay telemetry: served when the node runs the conference app API with relay telemetry ' +
  '(`conference.enabled`, `conference.relay_telemetry`) and its telemetry profile shows status routes.';

export interface ConferenceRouteOptions {
  /** `conference.relay_telemetry`: serve the four relay routes. */
  relayTelemetry: boolean;
  /** Signed requests of the call routes (`conference.request_max_age_ms`, `conference.nonces_max`). */
  signedRequests: SignedRequests;
}

const VIEWER_NOTE =
  'An `authenticated` call is served only to a signed request (x-ledger-* headers) of a registered ' +
  'account (401 signature_missing without one; 403 request_signature_invalid for an unregistered ' +
  'signer); a `public` one to anyone. The signature is optional for public calls.';

function relayListRoute(d: RouteDeps, reader: ConferenceReadPort): RouteDef {
  return defineRoute({
    method: 'GET',
    url: '/v1/conference/relays',
    operationId: 'listConferenceRelays',
    summary: 'Registered conference relays with their latest health ({items, total})',
    description: TELEMETRY_NOTE,
    tags: TAGS,
    visibility: 'status',
    formats: JSON_OR_CODEC,
    errorStatuses: [422],
    schema: { querystring: RelayListQuery, response: { 200: viewSchema(RelayListView) } },
    handler: (req, reply) => {
      const q = req.query;
      const items = reader
        .relays()
        .filter((r) => q.region === undefined || r.region === q.region)
        .filter(
          (r) => q.available === undefined || (relayStatus(r) === 'available') === (q.available === 'true'),
        )
        .map(relayItem);
      const views = { item: RelayView, list: RelayListView, idOf: (i: { id: string }) => i.id };
      return answerList(d, req, reply, views, items, queryInput(q));
    },
  });
}

function relayHealthRoute(d: RouteDeps, reader: ConferenceReadPort): RouteDef {
  return defineRoute({
    method: 'GET',
    url: '/v1/conference/relays/health',
    operationId: 'getConferenceRelayHealth',
    summary: 'Relay health totals (registered, available, unavailable, unknown) and each relay latest report',
    description: `${TELEMETRY_NOTE} \`items\` is one page (limit, offset) in relay id order; \`total\` = registered.`,
    tags: TAGS,
    visibility: 'status',
    formats: JSON_OR_CODEC,
    schema: { querystring: PageQuerystring, response: { 200: viewSchema(RelayHealthView) } },
    handler: (req, reply) => {
      const { limit, offset } = parsePage(req.query, d.limits);
      const all = reader.relays();
      const count = (s: string) => all.filter((r) => relayStatus(r) === s).length;
      return respond(d.schema, req, reply, RelayHealthView, {
        registered: all.length,
        available: count('available'),
        unavailable: count('unavailable'),
        unknown: count('unknown'),
        items: all.slice(offset, offset + limit).map(relayHealthItem),
        total: all.length,
      });
    },
  });
}

function relayEventsRoute(app: GatewayApp, d: RouteDeps, reader: ConferenceReadPort): RouteDef {
  const hub = new EventHub(d.ports.events, d.schema, (err) =>
    app.log.error({ err }, 'conference relay event subscriber failed'),
  );
  return defineRoute({
    method: 'GET',
    url: '/v1/conference/relays/events',
    operationId: 'streamConferenceRelayEvents',
    summary: 'Server-sent relay events (registered, manifest, health), resumable with Last-Event-ID',
    description:
      `${TELEMETRY_NOTE} Each message: \`id:\` (event id, the ids of /v1/events/sse), \`event: data\`, ` +
      '`data:` the JSON of a ConferenceRelayRegistered, ConferenceRelayManifestUpdated or ' +
      'ConferenceRelayHealthUpdated data event. Filters: kind, relay, domain. Lag and resumption as ' +
      '/v1/events/sse (`event: lagged`, `event: gone`).',
    tags: TAGS,
    visibility: 'status',
    formats: { default: 'sse', offers: ['sse'] },
    errorStatuses: [429],
    schema: {
      querystring: RelayEventsQuery,
      response: { 200: Type.String({ description: 'text/event-stream' }) },
    },
    handler: (req, reply) => {
      const q = req.query;
      const match = relayEventMatcher(
        {
          ...(q.kind === undefined ? {} : { kind: q.kind as RelayEventKind }),
          ...(q.relay === undefined ? {} : { relay: q.relay }),
          ...(q.domain === undefined ? {} : { domain: q.domain }),
        },
        reader,
      );
      serveSse(req, reply, hub, {
        filter: (e) => e instanceof SharedEvent && match(e.envelope.event),
      });
    },
  });
}

function relayRoute(d: RouteDeps, reader: ConferenceReadPort): RouteDef {
  return defineRoute({
    method: 'GET',
    url: '/v1/conference/relays/:relay_id',
    operationId: 'getConferenceRelay',
    summary: 'One conference relay with its latest health',
    description: TELEMETRY_NOTE,
    tags: TAGS,
    visibility: 'status',
    formats: JSON_OR_CODEC,
    errorStatuses: [404],
    schema: { params: RelayParams, response: { 200: viewSchema(RelayView) } },
    handler: (req, reply) => {
      const id = pathId(RelayId, req.params.relay_id, 'a relay name');
      const r = reader.relay(id);
      if (r === undefined)
        throw d.errors.create('conference_relay_not_found', { relay: id }, `no relay ${id} is registered`);
      return respond(d.schema, req, reply, RelayView, relayItem(r));
    },
  });
}

function callRoutes(d: RouteDeps, reader: ConferenceReadPort, auth: SignedRequests): RouteDef[] {
  const list = defineRoute({
    method: 'GET',
    url: '/v1/conference/calls',
    operationId: 'listConferenceCalls',
    summary: 'Conference calls ({items, total}), without rosters',
    description: `${VIEWER_NOTE} The list leaves out \`authenticated\` calls unless the request is signed.`,
    tags: TAGS,
    visibility: 'public',
    auth,
    formats: JSON_OR_CODEC,
    errorStatuses: [422],
    schema: { querystring: CallListQuery, response: { 200: viewSchema(CallListView) } },
    handler: (req, reply) => {
      const q = req.query;
      const signed = viewerOf(auth, reader, req) !== undefined;
      const calls = q.domain === undefined ? reader.calls() : reader.callsInDomain(q.domain);
      const items = calls
        .filter((c) => signed || c.policy.kind === 'Public')
        .map(callSummary)
        .filter((s) => q.status === undefined || s.status === q.status);
      const views = { item: CallSummaryView, list: CallListView, idOf: (i: { id: string }) => i.id };
      return answerList(d, req, reply, views, items, queryInput(q));
    },
  });
  const one = defineRoute({
    method: 'GET',
    url: '/v1/conference/calls/:call_id',
    operationId: 'getConferenceCall',
    summary: 'One conference call: settings, manifest, roster, usage totals and status',
    description: `The call id is \`<domain>:<call name>\`, URL-encoded. ${VIEWER_NOTE}`,
    tags: TAGS,
    visibility: 'public',
    auth,
    formats: JSON_OR_CODEC,
    errorStatuses: [404],
    schema: { params: CallParams, response: { 200: viewSchema(CallView) } },
    handler: (req, reply) => {
      const id = pathId(CallId, req.params.call_id, '<domain>:<call name>');
      const c = reader.call(id);
      if (c === undefined) throw d.errors.create('conference_not_found', { call: id });
      checkViewer(c, auth, reader, req);
      return respond(d.schema, req, reply, CallView, callDetail(c));
    },
  });
  return [list, one];
}

function poolRoute(d: RouteDeps, reader: ConferenceReadPort): RouteDef {
  return defineRoute({
    method: 'GET',
    url: '/v1/conference/pool',
    operationId: 'getConferenceShieldedPool',
    summary: 'The shielded pool tree, one page: note commitments in leaf order, the current and recent roots',
    description:
      'What a client needs to prove a note spend (docs/conference.md "Shielded fee"). Commitments ' +
      'reveal neither owner nor value. `leaves` is one page (limit, offset: leaf indexes) of the ' +
      '`total` leaves (at most 2^16, the tree depth); `root` is the root of all `total` leaves, so a ' +
      'client reads pages until `total` and proves against that root.',
    tags: TAGS,
    visibility: 'public',
    formats: JSON_OR_CODEC,
    schema: { querystring: PageQuerystring, response: { 200: viewSchema(ShieldedPoolView) } },
    handler: (req, reply) => {
      const { limit, offset } = parsePage(req.query, d.limits);
      const { leaves, total, roots } = reader.shieldedPoolPage(offset, limit);
      const root = roots.at(-1);
      return respond(d.schema, req, reply, ShieldedPoolView, {
        leaves,
        offset,
        total,
        ...(root === undefined ? {} : { root }),
        roots,
      });
    },
  });
}

const NullifierParams = Type.Object({
  kind: Type.Union([Type.Literal('roster'), Type.Literal('usage'), Type.Literal('note')]),
  nullifier: Type.String({ pattern: '^(0x)?[0-9a-fA-F]{1,64}$' }),
});
const NullifierView = Type.Object(
  { kind: Type.String(), nullifier: Type.String(), spent: Type.Boolean() },
  { examples: [{ kind: 'roster', nullifier: `${'0'.repeat(62)}2a`, spent: false }] },
);

function nullifierRoute(reader: ConferenceReadPort): RouteDef {
  return defineRoute({
    method: 'GET',
    url: '/v1/conference/nullifiers/:kind/:nullifier',
    operationId: 'getConferenceNullifier',
    summary: 'Whether a roster, usage or note nullifier is spent',
    description:
      'Lets a client refuse a private join, leave or fee spend whose nullifier is already spent before ' +
      'it spends seconds proving (the ledger would reject it: nullifier_reused). Nullifiers are public ' +
      '(they are in the committed transactions); the answer is at the committed height.',
    tags: TAGS,
    visibility: 'public',
    schema: { params: NullifierParams, response: { 200: NullifierView } },
    handler: (req) => {
      const { kind, nullifier } = req.params;
      return { kind, nullifier: nullifier.toLowerCase(), spent: reader.nullifierSpent(kind, nullifier) };
    },
  });
}

/** The route table; register it only when `conference.enabled`. */
export function conferenceRoutes(
  app: GatewayApp,
  d: RouteDeps,
  reader: ConferenceReadPort,
  opts: ConferenceRouteOptions,
): RouteDef[] {
  const relays = opts.relayTelemetry
    ? [
        relayListRoute(d, reader),
        relayHealthRoute(d, reader),
        relayEventsRoute(app, d, reader),
        relayRoute(d, reader),
      ]
    : [];
  return [
    ...relays,
    ...callRoutes(d, reader, optionalSignature(opts.signedRequests)),
    poolRoute(d, reader),
    nullifierRoute(reader),
  ];
}
