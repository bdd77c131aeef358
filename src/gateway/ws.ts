// WebSocket plumbing with `ws` (`GET /events`, `GET /block/stream`). Upgrades are
// taken from the HTTP server's 'upgrade' event for registered paths only; any other upgrade gets a 404
// and the socket is closed. The same path is also a plain Fastify GET route answering 426 Upgrade
// Required, so it is in the route table and in the OpenAPI document. Upgrades pass the same per-client
// rate limiter and API-version check as HTTP requests, and the server-wide WebSocket client cap
// (503 too_many_connections), and a browser page's upgrade must come from an origin of the CORS allow
// list (host-check.ts). WebSocket routes are public: they are not profile-gated.

import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { Type } from 'typebox';
import { WebSocketServer } from 'ws';
import { API_VERSION_HEADER, apiHeaders, negotiateApiVersion } from './api-version.js';
import { writeRawError } from './client-error.js';
import type { GatewayApp } from './context.js';
import { type GatewayError, gatewayError } from './errors.js';
import { checkWsOrigin } from './host-check.js';
import { disabledOperatorAuth } from './operator-auth.js';
import { profileAllows, profilesAllowing, type TelemetryProfile, type Visibility } from './profiles.js';
import { clientKey } from './rate-limit.js';
import { addRoute, type RouteFamilyTag } from './route-table.js';
import type { StreamRefusal } from './streams.js';
import {
  startOpenWsSession,
  startWsSession,
  WS_CLOSE,
  type WsContext,
  type WsHandler,
  type WsLimits,
  type WsOpenHandler,
} from './ws-session.js';

export { WS_CLOSE, type WsContext, type WsHandler, type WsLimits, type WsOpenHandler } from './ws-session.js';

export interface WsRouteOptions {
  operationId: string;
  summary: string;
  tags?: string[];
  /** Overrides of the server's WebSocket limits for this path. */
  limits?: Partial<WsLimits>;
  /**
   * Telemetry-profile gate, as HTTP routes have (profiles.ts): a path the profile does not serve refuses
   * every upgrade with 503 `telemetry_profile_restricted`. Omitted: public. Operator-signed WebSocket
   * routes do not exist (an upgrade carries no body to sign), so 'operator' is not accepted here.
   */
  gate?: { visibility: Exclude<Visibility, 'operator'>; profile: TelemetryProfile };
  /**
   * The subprotocol the server answers with when the client offers it (`Sec-WebSocket-Protocol`): a
   * browser fails a connection that offered subprotocols and got none back.
   */
  protocol?: string;
  /**
   * Screens the upgrade after the common checks (rate, origin, version, caps): a refusal is answered as
   * an HTTP error before the handshake; otherwise the handler it returns runs once the connection is
   * open, with no first message to wait for (the route's `handler` is then not called).
   */
  accept?: (req: IncomingMessage) => GatewayError | WsOpenHandler;
  /** More statuses its refusals answer with (the OpenAPI document lists them), and its own description. */
  errorStatuses?: number[];
  description?: string;
  /** The route family serving it (an application family's socket is marked and switched with it). */
  family?: RouteFamilyTag;
}

function pathOf(url: string | undefined): string {
  const u = url ?? '/';
  const q = u.indexOf('?');
  return q < 0 ? u : u.slice(0, q);
}

/** The refusal for an upgrade request, or undefined to let it through. */
function screenUpgrade(app: GatewayApp, req: IncomingMessage): GatewayError | undefined {
  const gw = app.gateway;
  const decision = gw.rateLimiter.take(clientKey(gw.clientAddress(req)));
  if (!decision.ok) return gatewayError('rate_limited', { retry_after_s: decision.retryAfterS });
  const refusal = gw.hostCheck(req.headers.host) ?? checkWsOrigin(req.headers.origin, gw.corsOrigins);
  if (refusal !== undefined) return refusal;
  const version = negotiateApiVersion(req.headers[API_VERSION_HEADER], gw.apiVersions);
  return typeof version === 'number' ? undefined : version;
}

/** The server-wide cap keeps its 503; the per-address cap answers 429 like the SSE caps. */
function wsCapRefusal(app: GatewayApp, refusal: StreamRefusal): GatewayError {
  if (refusal === 'server') return gatewayError('too_many_connections', { kind: 'ws', retry_after_s: 1 });
  return gatewayError('stream_limit_reached', {
    kind: 'ws',
    scope: 'client_address',
    limit: app.gateway.limits.wsClientsPerIpMax,
    retry_after_s: 1,
  });
}

function onUpgrade(app: GatewayApp, req: IncomingMessage, socket: Duplex, head: Buffer): void {
  const gw = app.gateway;
  const path = pathOf(req.url);
  const route = gw.wsRoutes.get(path);
  const refusal =
    route === undefined ? gatewayError('not_found', { path: path.slice(0, 256) }) : screenUpgrade(app, req);
  if (refusal !== undefined || route === undefined) {
    writeRawError(socket, refusal ?? gatewayError('not_found'), gw.apiVersions, gw.metrics);
    return;
  }
  route(req, socket, head);
}

export function registerWsRoute(
  app: GatewayApp,
  path: string,
  handler: WsHandler,
  opts: WsRouteOptions,
): void {
  const gw = app.gateway;
  const limits: WsLimits = {
    frameBytesMax: gw.limits.wsFrameBytesMax,
    firstMessageTimeoutMs: gw.limits.wsFirstMessageTimeoutMs,
    pingIntervalMs: gw.limits.wsPingIntervalMs,
    sendQueueMax: gw.limits.wsSendQueueMax,
    sendBufferBytesMax: gw.limits.wsSendBufferBytesMax,
    subscriptionsMax: gw.limits.wsSubscriptionsMax,
    closeGraceMs: gw.limits.streamCloseGraceMs,
    ...opts.limits,
  };
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: limits.frameBytesMax,
    perMessageDeflate: false,
    clientTracking: false,
    handleProtocols: (offered) =>
      opts.protocol !== undefined && offered.has(opts.protocol) ? opts.protocol : false,
  });
  const versionHeaders = Object.entries(apiHeaders(gw.apiVersions.default, gw.apiVersions));
  wss.on('headers', (lines: string[]) => {
    for (const [k, v] of versionHeaders) lines.push(`${k}: ${v}`);
  });
  if (gw.wsRoutes.size === 0) {
    app.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) =>
      onUpgrade(app, req, socket, head),
    );
  }
  const gate = opts.gate ?? { visibility: 'public', profile: 'disabled' };
  const restricted = !profileAllows(gate.profile, gate.visibility);
  gw.wsRoutes.set(path, (req, socket, head) => {
    if (restricted) {
      const details = { profile: gate.profile, served_by: profilesAllowing(gate.visibility) };
      writeRawError(
        socket,
        gatewayError('telemetry_profile_restricted', details),
        gw.apiVersions,
        gw.metrics,
      );
      return;
    }
    const accepted = opts.accept?.(req);
    if (accepted !== undefined && typeof accepted !== 'function') {
      writeRawError(socket, accepted, gw.apiVersions, gw.metrics);
      return;
    }
    let ctx: WsContext | undefined;
    const release = gw.streams.open(
      'ws',
      () => ctx?.close(WS_CLOSE.goingAway, 'server shutting down'),
      clientKey(gw.clientAddress(req)),
    );
    if (typeof release === 'string') {
      writeRawError(socket, wsCapRefusal(app, release), gw.apiVersions, gw.metrics);
      return;
    }
    socket.once('close', release);
    const onError = (err: unknown) => app.log.error({ err }, 'websocket handler failed');
    wss.handleUpgrade(req, socket, head, (ws) => {
      ctx =
        accepted === undefined
          ? startWsSession(ws, req, socket, handler, limits, onError)
          : startOpenWsSession(ws, req, socket, accepted, limits, onError);
    });
  });
  app.addHook('onClose', async () => wss.close());
  addRoute(
    app,
    {
      method: 'GET',
      url: path,
      operationId: opts.operationId,
      summary: opts.summary,
      description:
        opts.description ??
        'WebSocket endpoint: send `Connection: Upgrade`, `Upgrade: websocket`. Plain GET answers 426.',
      tags: opts.tags ?? ['streams'],
      visibility: gate.visibility,
      errorStatuses: [403, 421, 426, 429, 503, ...(opts.errorStatuses ?? [])],
      schema: { response: { 101: Type.Null({ description: 'Switching Protocols (WebSocket)' }) } },
      handler: () => {
        throw gatewayError('upgrade_required', { path });
      },
    },
    {
      profile: gate.profile,
      operatorAuth: disabledOperatorAuth(),
      ...(opts.family === undefined ? {} : { family: opts.family }),
    },
  );
}
