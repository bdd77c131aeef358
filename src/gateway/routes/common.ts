// Common routes (gateway-interface.md "Common endpoints"; reference-notes §3): health, versions, status,
// capabilities, time, peers, schema and parameters. /metrics and /openapi are registered by the server.

import { Type } from 'typebox';
import type { Infer } from '../../codec/codec.js';
import { CODEC_VERSION } from '../../codec/frame.js';
import { ParametersCodec } from '../../model/parameters.js';
import { DATA_MODEL_VERSION } from '../../model/schema.js';
import { toHex } from '../../util/hex.js';
import type { RouteDeps } from '../deps.js';
import { gatewayError } from '../errors.js';
import type { FormatOffer } from '../negotiate.js';
import { defineRoute, type RouteDef } from '../route-table.js';
import { respond, viewSchema } from '../view.js';
import {
  ApiVersionsView,
  ApiVersionView,
  CapabilitiesView,
  HealthView,
  PeersView,
  SchemaView,
  StatusView,
  TimeNowView,
  TimeStatusView,
} from '../views/common.js';

const JSON_OR_CODEC: FormatOffer = { default: 'json', offers: ['json', 'codec'] };

/** Resources the query aggregate helpers can count (reference-notes §3 `query.aggregate`). */
export const AGGREGATE_RESOURCES = [
  'accounts',
  'assets',
  'asset_definitions',
  'domains',
  'nfts',
  'roles',
  'peers',
  'transactions',
  'blocks',
];

export function statusOf(d: RouteDeps): Infer<typeof StatusView> {
  const { node, chain, transactions, consensus, state } = d.ports;
  const c = transactions.counters();
  const snap = consensus.snapshot();
  const uptimeMs = Math.max(0, node.nowMs() - node.startedAtMs);
  return {
    peers: node.connectedPeers().length,
    blocks: chain.height(),
    blocksNonEmpty: c.blocksNonEmpty,
    commitTimeMs: Math.round(c.lastCommitMs),
    txsApproved: c.txsApproved,
    txsRejected: c.txsRejected,
    txsExpired: c.txsExpired,
    uptime: { secs: Math.floor(uptimeMs / 1000), nanos: (uptimeMs % 1000) * 1_000_000 },
    viewChanges: snap.viewChanges,
    queueSize: transactions.queueDepth(),
    queueCapacity: transactions.queueCapacity(),
    stateRoot: toHex(state.stateRoot()),
    consensus: {
      mode: snap.mode,
      height: snap.height,
      view: snap.view,
      leaderIndex: snap.leaderIndex,
      validators: snap.validatorSet.size,
    },
  };
}

function timeNow(d: RouteDeps): Infer<typeof TimeNowView> {
  // One peer has no one to compare clocks with: it reports its own clock as the fallback (reference-notes §3).
  const peers = d.ports.node.connectedPeers().length;
  return {
    now: d.ports.node.nowMs(),
    offsetMs: 0,
    confidenceMs: 0,
    sampleCount: 0,
    peerCount: peers,
    fallback: true,
    health: { healthy: true, minSamplesOk: peers === 0, offsetOk: true, confidenceOk: true },
  };
}

export function commonRoutes(d: RouteDeps): RouteDef[] {
  const tags = ['node'];
  const health = (url: string, operationId: string, summary: string) =>
    defineRoute({
      method: 'GET',
      url,
      operationId,
      summary,
      tags,
      visibility: 'public',
      formats: JSON_OR_CODEC,
      errorStatuses: [503],
      schema: { response: { 200: viewSchema(HealthView) } },
      handler: (req, reply) => {
        if (!d.ports.node.healthy()) throw d.errors.create('node_unhealthy');
        return respond(d.schema, req, reply, HealthView, { status: 'ok' });
      },
    });
  return [
    health('/health', 'getHealth', 'Liveness: 200 while the node runs'),
    health('/v1/health', 'getHealthV1', 'Liveness (versioned path)'),
    defineRoute({
      method: 'GET',
      url: '/api_version',
      operationId: 'getApiVersion',
      summary: 'Default API version',
      tags,
      visibility: 'public',
      formats: JSON_OR_CODEC,
      schema: { response: { 200: viewSchema(ApiVersionView) } },
      handler: (req, reply) =>
        respond(d.schema, req, reply, ApiVersionView, { version: String(d.apiVersions.default) }),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/api/versions',
      operationId: 'getApiVersions',
      summary: 'Supported API versions',
      tags,
      visibility: 'public',
      formats: JSON_OR_CODEC,
      schema: { response: { 200: viewSchema(ApiVersionsView) } },
      handler: (req, reply) =>
        respond(d.schema, req, reply, ApiVersionsView, {
          default: String(d.apiVersions.default),
          supported: d.apiVersions.supported.map(String),
        }),
    }),
    defineRoute({
      method: 'GET',
      url: '/status',
      operationId: 'getStatus',
      summary: 'Operator status summary',
      tags,
      visibility: 'status',
      formats: JSON_OR_CODEC,
      schema: { response: { 200: viewSchema(StatusView) } },
      handler: (req, reply) => respond(d.schema, req, reply, StatusView, statusOf(d)),
    }),
    defineRoute({
      method: 'GET',
      url: '/status/:field',
      operationId: 'getStatusField',
      summary: 'One field of the status summary',
      tags,
      visibility: 'status',
      errorStatuses: [404],
      schema: {
        params: Type.Object({ field: Type.String({ maxLength: 64 }) }),
        // Documents the answer (any JSON value: a number or an object, depending on the field).
        response: { 200: Type.Unknown({ description: 'The JSON value of that field of GET /status' }) },
      },
      handler: (req, reply) => {
        const json = StatusView.toJson(statusOf(d)) as Record<string, unknown>;
        if (!Object.hasOwn(json, req.params.field))
          throw gatewayError('not_found', { field: req.params.field, fields: Object.keys(json) });
        return reply.type('application/json; charset=utf-8').send(JSON.stringify(json[req.params.field]));
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/node/capabilities',
      operationId: 'getCapabilities',
      summary: 'Node capabilities and data-model metadata',
      tags,
      visibility: 'public',
      formats: JSON_OR_CODEC,
      schema: { response: { 200: viewSchema(CapabilitiesView) } },
      handler: (req, reply) =>
        respond(d.schema, req, reply, CapabilitiesView, {
          abiVersion: d.ports.state.abiVersion(),
          dataModelVersion: DATA_MODEL_VERSION,
          codecVersion: CODEC_VERSION,
          chainId: d.ports.node.chainId,
          crypto: {
            defaultHash: 'blake2b-256',
            signingAlgorithms: ['ed25519'],
            consensusSignature: 'bls12_381',
          },
          query: {
            aggregate: { supportedResources: AGGREGATE_RESOURCES },
            fetchSizeMax: d.limits.fetchSizeMax,
          },
          features: [...d.features],
        }),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/time/now',
      operationId: 'getTimeNow',
      summary: 'Wall-clock snapshot',
      tags,
      visibility: 'public',
      formats: JSON_OR_CODEC,
      schema: { response: { 200: viewSchema(TimeNowView) } },
      handler: (req, reply) => respond(d.schema, req, reply, TimeNowView, timeNow(d)),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/time/status',
      operationId: 'getTimeStatus',
      summary: 'Time synchronisation status',
      tags,
      visibility: 'public',
      formats: JSON_OR_CODEC,
      schema: { response: { 200: viewSchema(TimeStatusView) } },
      handler: (req, reply) => {
        const t = timeNow(d);
        return respond(d.schema, req, reply, TimeStatusView, {
          peers: t.peerCount,
          samplesUsed: 0,
          offsetMs: 0,
          confidenceMs: 0,
          fallback: true,
          health: t.health,
          samples: [],
          rttHistogram: [],
        });
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/peers',
      operationId: 'getPeers',
      summary: 'Connected peers as "<public key>@<host:port>"',
      tags,
      visibility: 'public',
      formats: JSON_OR_CODEC,
      schema: { response: { 200: viewSchema(PeersView) } },
      handler: (req, reply) => respond(d.schema, req, reply, PeersView, d.ports.node.connectedPeers()),
    }),
    defineRoute({
      method: 'GET',
      url: '/schema',
      operationId: 'getSchema',
      summary: 'Data-model schema snapshot (every codec type)',
      tags,
      visibility: 'public',
      formats: JSON_OR_CODEC,
      schema: { response: { 200: viewSchema(SchemaView) } },
      handler: (req, reply) => {
        const s = d.schema.snapshot();
        return respond(d.schema, req, reply, SchemaView, { version: s.version, types: s.types as never });
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/parameters',
      operationId: 'getParameters',
      summary: 'Chain parameters in force',
      tags,
      visibility: 'public',
      formats: JSON_OR_CODEC,
      schema: { response: { 200: viewSchema(ParametersCodec) } },
      handler: (req, reply) => respond(d.schema, req, reply, ParametersCodec, d.ports.state.parameters()),
    }),
  ];
}
