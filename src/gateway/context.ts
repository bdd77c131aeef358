// The per-server state every gateway module reaches through `app.gateway` (one object per server
// instance, never module-level, so two nodes can share a process), and the Fastify type used everywhere.

import type { Duplex } from 'node:stream';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ApiVersions } from './api-version.js';
import type { ErrorBody, ErrorRegistry } from './errors.js';
import type { HostCheck } from './host-check.js';
import type { GatewayLimits } from './limits.js';
import type { GatewayMetrics } from './metrics.js';
import type { Format, FormatOffer } from './negotiate.js';
import type { Visibility } from './profiles.js';
import type { RateLimiter } from './rate-limit.js';
import type { StreamTracker } from './streams.js';

export type GatewayApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** What the OpenAPI generator needs to know about a route beyond its schema. */
export interface RouteMeta {
  readonly operationId: string;
  readonly visibility: Visibility;
  readonly formats: FormatOffer;
  /** Accepted request body media (empty: the route takes no body). */
  readonly bodyFormats: readonly Format[];
  /** Error statuses this route can answer with, documented with the error schema. */
  readonly errorStatuses: readonly number[];
  /** True when the telemetry profile forbids the route: it answers 503 only. */
  readonly restricted: boolean;
  /** Per-node state (RouteDef.nodeLocal): documented as such. */
  readonly nodeLocal: boolean;
  /** A POST that only reads (RouteDef.readsOnly). */
  readonly readsOnly?: boolean;
  /** The route family that registered it, if any (route-table.ts RouteContext.family). */
  readonly family?: { readonly name: string; readonly app: boolean };
  /** The route needs a signed app request (RouteDef.auth): clients that cannot sign cannot call it. */
  readonly signed: boolean;
}

export interface RegisteredRoute {
  readonly method: string;
  readonly url: string;
  readonly hidden: boolean;
}

export interface GatewayContext {
  readonly limits: GatewayLimits;
  readonly errors: ErrorRegistry;
  readonly metrics: GatewayMetrics;
  readonly apiVersions: ApiVersions;
  readonly encodeErrorCodec: ((body: ErrorBody) => Uint8Array) | undefined;
  readonly rateLimiter: RateLimiter;
  readonly streams: StreamTracker;
  /** Refuses requests whose `Host` names none of the node's names (host-check.ts, DNS rebinding). */
  readonly hostCheck: HostCheck;
  /** The CORS allow list; also the origins allowed to open WebSockets (host-check.ts). */
  readonly corsOrigins: readonly string[];
  /** Route metadata by operationId (operationIds are unique per server). */
  readonly routeMeta: Map<string, RouteMeta>;
  /** Every route Fastify registered (collected by an onRoute hook); `hidden` ones are not documented. */
  readonly routes: RegisteredRoute[];
  /** WebSocket paths and their upgrade handlers, filled by registerWsRoute. */
  readonly wsRoutes: Map<string, WsUpgrade>;
  /** The client address of a raw request (forwarded.ts): the socket peer, or whom a trusted proxy names. */
  readonly clientAddress: (req: RawRequestDefaultExpression) => string | undefined;
}

export type WsUpgrade = (req: RawRequestDefaultExpression, socket: Duplex, head: Buffer) => void;

declare module 'fastify' {
  interface FastifyInstance {
    gateway: GatewayContext;
  }
  interface FastifyRequest {
    /** The negotiated answer format of this request (set before the handler runs). */
    responseFormat: Format;
    /**
     * The route pattern of a route added by `addRoute`, set by its first hook ('' before, and for
     * other routes): the metrics label without building Fastify's `routeOptions` per request.
     */
    metricsRoute: string;
  }
}
