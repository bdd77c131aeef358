// Gateway metrics on a prom-client Registry owned by one server, never the global
// default registry, so two nodes can live in one process. Labels carry route PATTERNS, error codes and
// a fixed method set only, so the number of series stays bounded whatever paths clients request.

import type { FastifyReply, FastifyRequest } from 'fastify';
import { Counter, Gauge, Registry } from 'prom-client';
import { Type } from 'typebox';
import type { GatewayApp } from './context.js';
import { RequestTally, RouteDurations } from './route-durations.js';
import type { RouteDef } from './route-table.js';

export interface GatewayMetrics {
  readonly registry: Registry;
  readonly requests: Counter<'route' | 'method' | 'status'>;
  /** The answered requests of the onResponse hook, added to `requests` when scraped (route-durations.ts). */
  readonly answered: RequestTally;
  readonly duration: RouteDurations;
  readonly activeConnections: Gauge<'scheme'>;
  readonly activeStreams: Gauge<'kind'>;
  readonly rejected: Counter<'reason'>;
  readonly codecDecodeFailures: Counter;
  /** Transactions received in batches (POST /v1/transactions/batch, /v1/transactions/ws), by outcome. */
  readonly batchItems: Counter<'channel' | 'outcome'>;
}

/** Seconds; spans a cached read (1 ms) to a request that hits the request timeout (30 s). */
const DURATION_BUCKETS_S = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export function createGatewayMetrics(registry: Registry = new Registry()): GatewayMetrics {
  const registers = [registry];
  const answered = new RequestTally();
  return {
    registry,
    requests: new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by route pattern, method and status.',
      labelNames: ['route', 'method', 'status'],
      registers,
      collect() {
        answered.flush(this);
      },
    }),
    answered,
    duration: new RouteDurations(
      'http_request_duration_seconds',
      'Time from receiving a request to finishing its answer, by route pattern and method.',
      DURATION_BUCKETS_S,
      registers,
    ),
    activeConnections: new Gauge({
      name: 'http_active_connections',
      help: 'Open client connections, by scheme.',
      labelNames: ['scheme'],
      registers,
    }),
    activeStreams: new Gauge({
      name: 'http_active_streams',
      help: 'Open long-lived streams, by kind (sse, ws).',
      labelNames: ['kind'],
      registers,
    }),
    rejected: new Counter({
      name: 'http_rejected_requests_total',
      help: 'Requests refused with an error, by error code.',
      labelNames: ['reason'],
      registers,
    }),
    codecDecodeFailures: new Counter({
      name: 'codec_decode_failures_total',
      help: 'Request bodies that failed codec decoding.',
      registers,
    }),
    batchItems: new Counter({
      name: 'transaction_batch_items_total',
      help: 'Transactions received in batches, by channel (http, ws) and outcome (accepted, refused).',
      labelNames: ['channel', 'outcome'],
      registers,
    }),
  };
}

const METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']);

export function methodLabel(method: string): string {
  return METHODS.has(method) ? method : 'OTHER';
}

/** The route PATTERN (`/v1/accounts/:id`), or `unmatched`: never the raw path. */
export function routeLabel(req: FastifyRequest): string {
  // Set by the first hook of a route `addRoute` added (route-table.ts): its pattern, as below.
  if (req.metricsRoute !== '') return req.metricsRoute;
  if (req.is404) return 'unmatched';
  return req.routeOptions.url ?? 'unmatched';
}

/** Counts every answered request; hijacked streams count themselves when they start. */
export function installHttpMetrics(app: GatewayApp, metrics: GatewayMetrics): void {
  app.addHook('onResponse', (req: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const route = routeLabel(req);
    const method = methodLabel(req.method);
    metrics.answered.count(route, method, reply.statusCode);
    metrics.duration.observeFor(route, method, reply.elapsedTime / 1000);
    done();
  });
}

/** `GET /metrics` in the metrics scraper's text format; shown by the `extended` and `full` profiles. */
export function metricsRoute(metrics: GatewayMetrics): RouteDef {
  return {
    method: 'GET',
    url: '/metrics',
    operationId: 'getMetrics',
    summary: 'Metrics in the Prometheus text exposition format',
    tags: ['telemetry'],
    visibility: 'metrics',
    formats: { default: 'text', offers: ['text'] },
    schema: { response: { 200: Type.String({ description: 'Prometheus text exposition format 0.0.4' }) } },
    handler: async (_req, reply) => {
      const text = await metrics.registry.metrics();
      return reply.type(metrics.registry.contentType).send(text);
    },
  };
}
