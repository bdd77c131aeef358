// createGatewayServer: a Fastify 5 instance with every limit on by default (docs/design/testing.md
// "Default limits"), one error mapping (error-reply.ts), API-version headers on every answer (api-version.ts),
// per-IP rate limiting and connection caps, CORS from an allow-list, metrics on a per-server registry
// and the OpenAPI document. Route families are added afterwards with registerRoutes (route-table.ts).

import cors from '@fastify/cors';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController } from 'fastify';
import type { Registry } from 'prom-client';
import {
  API_VERSION_HEADER,
  type ApiVersions,
  apiHeaders,
  DEFAULT_API_VERSIONS,
  negotiateApiVersion,
} from './api-version.js';
import { createClientErrorHandler } from './client-error.js';
import { attachConnectionLimits } from './connections.js';
import type { GatewayApp, GatewayContext } from './context.js';
import { frameworkErrorHandler, installErrorHandlers } from './error-reply.js';
import { createErrorRegistry, type ErrorBody, type ErrorRegistry, gatewayError } from './errors.js';
import { clientAddress, trustCheck } from './forwarded.js';
import { createHostCheck, LOOPBACK_HOSTS } from './host-check.js';
import { type GatewayLimits, resolveLimits } from './limits.js';
import { createGatewayMetrics, installHttpMetrics } from './metrics.js';
import { type OpenApiInfo, openApiRoutes, registerOpenApi } from './openapi.js';
import { disabledOperatorAuth } from './operator-auth.js';
import { OPERATOR_HEADERS } from './operator-message.js';
import { clientKey, createRateLimiter } from './rate-limit.js';
import { lazyChildLoggerFactory } from './request-logger.js';
import { registerRoutes } from './route-table.js';
import { sharedValidatorFactory } from './schema-compilers.js';
import { SIGNED_REQUEST_HEADERS } from './signed-request.js';
import { createStreamTracker } from './streams.js';

export type { GatewayLimits } from './limits.js';

export interface GatewayServerOptions {
  limits?: Partial<GatewayLimits>;
  /** pino level; 'silent' in tests. */
  logLevel?: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** One log entry per request and response (`log.access`); on when absent. */
  logAccess?: boolean;
  /** Where log lines go instead of stdout (a readable formatter on a terminal: node/log-format.ts). */
  logStream?: { write(line: string): void };
  /** Origins allowed to read answers from a browser; empty or absent: no CORS headers at all. */
  corsOrigins?: readonly string[];
  apiVersions?: ApiVersions;
  /** The error registry, extended with the ledger's codes by the composition root. */
  errors?: ErrorRegistry;
  /** Encodes error bodies for clients preferring the codec; JSON errors only when absent. */
  encodeErrorCodec?: (body: ErrorBody) => Uint8Array;
  /** Registry for the gateway series; a fresh one per server when absent (never the global one). */
  metricsRegistry?: Registry;
  openapi?: OpenApiInfo;
  /**
   * Names a `Host` header may carry (port ignored; `*` disables the check). Default: the loopback names.
   * A node reached under other names (a public DNS name, a LAN address) must list them.
   */
  allowedHosts?: readonly string[];
  /** Clock for the rate limiter (ms). */
  now?: () => number;
  /**
   * Reverse proxies (addresses or CIDR ranges) whose X-Forwarded-For names the client (forwarded.ts);
   * empty or absent: the socket peer is the client and the header is ignored.
   */
  trustedProxies?: readonly string[];
  /** Serve HTTPS with this PEM certificate chain and key (TLS 1.2 or later); plain HTTP when absent. */
  tls?: { readonly cert: Buffer; readonly key: Buffer };
}

/** Levels at which Fastify's access log lines ("incoming request", "request completed") are written. */
const ACCESS_LOG_LEVELS: ReadonlySet<string> = new Set(['info', 'debug', 'trace']);

/**
 * Whether a request writes a log line only when something goes wrong (its access lines are off or below
 * the level): then its child logger is made on first use (request-logger.ts), not for every request.
 */
function requestLogsRare(opts: GatewayServerOptions): boolean {
  return opts.logAccess === false || !ACCESS_LOG_LEVELS.has(opts.logLevel ?? 'info');
}

const DEFAULT_OPENAPI_INFO: OpenApiInfo = { title: 'torana ledger node', version: '1' };

/** Headers a browser may send and read cross-origin (RFC 6454 / Fetch CORS protocol). */
const CORS_REQUEST_HEADERS = [
  'content-type',
  'accept',
  API_VERSION_HEADER,
  'last-event-id',
  ...OPERATOR_HEADERS,
  // Signed app requests (signed-request.ts): the bridge and the modules' signed routes (signalling, …),
  // which a browser client calls directly.
  ...SIGNED_REQUEST_HEADERS,
  // Operator sign-in sessions (`Authorization: Bearer`): a browser page served by another node reading this one.
  'authorization',
];
const CORS_EXPOSED_HEADERS = [API_VERSION_HEADER, 'x-ledger-api-supported', 'retry-after'];

function buildFastify(
  limits: GatewayLimits,
  opts: GatewayServerOptions,
  ctx: Omit<GatewayContext, 'rateLimiter'>,
) {
  return Fastify({
    // HTTPS changes only the listening socket: routes, WebSocket upgrades and SSE are the same. (The
    // instance's type still names the HTTP server, whose API node:https.Server extends.)
    ...(opts.tls === undefined
      ? {}
      : { https: { cert: opts.tls.cert, key: opts.tls.key, minVersion: 'TLSv1.2' as const } }),
    // request.ip: the client a trusted proxy names (the same rule as forwarded.ts for WebSockets).
    trustProxy:
      opts.trustedProxies !== undefined && opts.trustedProxies.length > 0 ? [...opts.trustedProxies] : false,
    logger: { level: opts.logLevel ?? 'info', ...(opts.logStream ? { stream: opts.logStream } : {}) },
    logController: new LogController({ disableRequestLogging: opts.logAccess === false }),
    ...(requestLogsRare(opts) ? { childLoggerFactory: lazyChildLoggerFactory() } : {}),
    bodyLimit: limits.bodyBytesMax,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    http: {
      maxHeaderSize: limits.headerBytesMax,
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: limits.timeoutCheckIntervalMs,
    },
    exposeHeadRoutes: false,
    // Text ids (accounts carry a 70-character key) arrive as path parameters; Fastify's default is 100.
    // (Set through routerOptions: the top-level option is deprecated in Fastify 5, FSTDEP022.)
    routerOptions: { maxParamLength: 1024 },
    forceCloseConnections: true,
    // Fastify's closing 503 is a fixed body outside the registry; requests that still arrive while the
    // server drains are answered normally instead (with `Connection: close`).
    return503OnClosing: false,
    clientErrorHandler: createClientErrorHandler(ctx.apiVersions, ctx.metrics),
    frameworkErrors: frameworkErrorHandler,
    // Request validators compiled once per process, not once per server (schema-compilers.ts).
    schemaController: { compilersFactory: { buildValidator: sharedValidatorFactory } },
  }).withTypeProvider<TypeBoxTypeProvider>();
}

function installParsers(app: GatewayApp): void {
  // Only the media the gateway understands; anything else is 415 before the body is read. Families
  // with other bodies (XML) add their own parser.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    app.getDefaultJsonParser('error', 'error'),
  );
  app.addContentTypeParser('application/x-codec', { parseAs: 'buffer' }, (_req, body, done) =>
    done(null, body),
  );
}

function installRequestGate(app: GatewayApp, versions: ApiVersions): void {
  const headers = apiHeaders(versions.default, versions);
  // The client key of the last address seen (keep-alive connections send many requests each).
  let lastIp: string | undefined | null = null;
  let lastKey = '';
  const keyOf = (ip: string | undefined) => {
    if (ip !== lastIp) {
      lastKey = clientKey(ip);
      lastIp = ip;
    }
    return lastKey;
  };
  // Callback form (no promise per request): every request passes here.
  app.addHook('onRequest', (req, reply, done) => {
    // Set first, so even the refusals below carry the version headers.
    reply.headers(headers);
    const decision = app.gateway.rateLimiter.take(keyOf(req.ip));
    if (!decision.ok) {
      done(gatewayError('rate_limited', { retry_after_s: decision.retryAfterS }));
      return;
    }
    // After the rate limiter, so that refused rebinding probes still spend the client's budget.
    const wrongHost = app.gateway.hostCheck(req.headers.host);
    if (wrongHost !== undefined) {
      done(wrongHost);
      return;
    }
    const version = negotiateApiVersion(req.headers[API_VERSION_HEADER], versions);
    if (typeof version !== 'number') {
      done(version);
      return;
    }
    // The default version is already in `headers`.
    if (version !== versions.default) reply.header(API_VERSION_HEADER, String(version));
    done();
  });
}

export async function createGatewayServer(opts: GatewayServerOptions = {}): Promise<GatewayApp> {
  const limits = resolveLimits(opts.limits);
  const metrics = createGatewayMetrics(opts.metricsRegistry);
  const base: Omit<GatewayContext, 'rateLimiter'> = {
    limits,
    errors: opts.errors ?? createErrorRegistry(),
    metrics,
    apiVersions: opts.apiVersions ?? DEFAULT_API_VERSIONS,
    encodeErrorCodec: opts.encodeErrorCodec,
    streams: createStreamTracker({ sse: limits.sseClientsMax, ws: limits.wsClientsMax }, metrics, {
      sse: limits.sseClientsPerIpMax,
      ws: limits.wsClientsPerIpMax,
    }),
    hostCheck: createHostCheck(opts.allowedHosts ?? LOOPBACK_HOSTS),
    corsOrigins: opts.corsOrigins ?? [],
    routeMeta: new Map(),
    routes: [],
    wsRoutes: new Map(),
    clientAddress: (() => {
      const trusted =
        opts.trustedProxies !== undefined && opts.trustedProxies.length > 0
          ? trustCheck(opts.trustedProxies)
          : undefined;
      return (req: import('node:http').IncomingMessage) =>
        clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], trusted);
    })(),
  };
  const app = buildFastify(limits, opts, base);
  app.addHook('onRoute', (route) => {
    // Under the shared validator factory (schema-compilers.ts) Fastify would not lower-case the names
    // of a headers schema: a route reads its headers in code instead.
    if ((route.schema as { headers?: unknown } | undefined)?.headers !== undefined)
      throw new Error(`${String(route.method)} ${route.url}: a headers schema is not supported`);
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const hidden = (route.schema as { hide?: boolean } | undefined)?.hide === true;
    for (const method of methods) base.routes.push({ method: String(method), url: route.url, hidden });
  });
  const rateLimiter = createRateLimiter({
    ratePerSecond: limits.ratePerSecond,
    burst: limits.rateBurst,
    trackedMax: limits.rateTrackedIpsMax,
    now: opts.now ?? Date.now,
  });
  app.decorate('gateway', { ...base, rateLimiter });
  app.decorateRequest('responseFormat', 'json');
  app.decorateRequest('metricsRoute', '');
  attachConnectionLimits(app.server, limits, metrics);
  installParsers(app);
  installErrorHandlers(app);
  const origins = base.corsOrigins;
  if (origins.length > 0) {
    await app.register(cors, {
      origin: [...origins],
      allowedHeaders: CORS_REQUEST_HEADERS,
      exposedHeaders: CORS_EXPOSED_HEADERS,
      methods: ['GET', 'POST', 'PUT', 'DELETE'],
      // A malformed preflight gets a plain 204 without CORS headers rather than the plugin's text/plain 400.
      strictPreflight: false,
    });
  }
  installRequestGate(app, base.apiVersions);
  installHttpMetrics(app, metrics);
  app.addHook('preClose', async () => app.gateway.streams.closeAll());
  await registerOpenApi(app, opts.openapi ?? DEFAULT_OPENAPI_INFO);
  registerRoutes(app, openApiRoutes(app), { profile: 'disabled', operatorAuth: disabledOperatorAuth() });
  return app;
}
