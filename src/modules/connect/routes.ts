// The Connect relay's routes (docs/connect.md "Routes"). Node-local: a session lives on the node that
// opened it, and both sides connect to that node (the URIs it returns point at it); nodes never relay
// across peers.
//
//   POST   /v1/connect/session          {sid, node?} → 201 {sid, wallet_uri, app_uri, token_app, token_wallet}
//   GET    /v1/connect/ws?sid=&role=     WebSocket; the role's token in Sec-WebSocket-Protocol
//   DELETE /v1/connect/session/{sid}    204: the session and its sockets closed
//   GET    /v1/connect/status            counters and limits

import type { IncomingMessage } from 'node:http';
import { Type } from 'typebox';
import type { GatewayApp } from '../../gateway/context.js';
import type { RouteDeps } from '../../gateway/deps.js';
import { type GatewayError, gatewayError } from '../../gateway/errors.js';
import { defineRoute, type RouteDef } from '../../gateway/route-table.js';
import { registerWsRoute, WS_CLOSE, type WsContext, type WsOpenHandler } from '../../gateway/ws.js';
import { wsMessageBytes } from '../../gateway/ws-session.js';
import { CONNECT_ROLES, type ConnectRole, type Relay, type RelayPeer } from './relay.js';

/** The subprotocol both sides offer, next to their token (docs/connect.md "Tokens"). */
export const CONNECT_PROTOCOL = 'torana-connect.v1';
export const CONNECT_WS_PATH = '/v1/connect/ws';
/** base64url of 32 bytes, unpadded. */
export const SID_PATTERN = '^[A-Za-z0-9_-]{43}$';
const SID = new RegExp(SID_PATTERN);
const NODE_URL_CHARS_MAX = 256;

const TAGS = ['connect'];
const NODE_LOCAL =
  'Connect sessions are state of this node only: both sides connect to this node, which relays their frames without reading them. ';

const EXAMPLE_SID = 'q0rU8cZ1vH7uJw4cVx2LkQ5mN3pB6tYe9aS0dF1gH2i';
const EXAMPLE_TOKEN_APP = 'v3F8qLmN0pR2sT4uW6yA8cE0gI2kM4oQ6sU8wY0aC2e';
const EXAMPLE_TOKEN_WALLET = 'Zx1Cv3Bn5Mq7Wr9Ty1Ui3Op5As7Df9Gh1Jk3Lz5Xc7V';

const SessionBody = Type.Object(
  {
    sid: Type.String({
      pattern: SID_PATTERN,
      description: 'base64url (unpadded) of 32 bytes the app computed: SHA-256 of its X25519 public key',
    }),
    node: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: NODE_URL_CHARS_MAX,
        pattern: '^https?://[^\\s?#]+$',
        description:
          'This node as the clients reach it (http or https base URL); default: the Host of this request',
      }),
    ),
  },
  { additionalProperties: false, examples: [{ sid: EXAMPLE_SID, node: 'https://node.example' }] },
);

const SessionView = Type.Object(
  {
    sid: Type.String(),
    wallet_uri: Type.String({
      description: 'The pairing URI the app shows the wallet (the SDK adds the app key as `pk`)',
    }),
    app_uri: Type.String({ description: "The app's WebSocket URL on this node" }),
    token_app: Type.String({ description: 'Single-use token of the app side (Sec-WebSocket-Protocol)' }),
    token_wallet: Type.String({ description: 'Single-use token of the wallet side (in wallet_uri)' }),
  },
  {
    examples: [
      {
        sid: EXAMPLE_SID,
        wallet_uri: `torana-connect:${EXAMPLE_SID}?node=https%3A%2F%2Fnode.example&token=${EXAMPLE_TOKEN_WALLET}`,
        app_uri: `wss://node.example/v1/connect/ws?sid=${EXAMPLE_SID}&role=app`,
        token_app: EXAMPLE_TOKEN_APP,
        token_wallet: EXAMPLE_TOKEN_WALLET,
      },
    ],
  },
);

const Count = (description: string) => Type.Integer({ minimum: 0, description });
const STATUS_EXAMPLE = {
  sessions: 3,
  sockets: 5,
  counters: {
    sessions_opened: 12,
    sessions_closed: 7,
    sessions_dropped_idle: 2,
    sessions_refused_full: 0,
    attaches_refused: 1,
    frames_relayed: 240,
    frames_held: 2,
    frames_dropped: 0,
    frames_refused_size: 0,
    frames_refused_rate: 0,
    bytes_relayed: 61_440,
  },
  limits: {
    sessions_max: 1000,
    token_ttl_ms: 60_000,
    idle_ms: 300_000,
    frame_bytes_max: 65_536,
    frames_per_second: 20,
    frame_burst: 40,
    pending_frames_max: 8,
  },
};
const StatusView = Type.Object(
  {
    sessions: Count('open sessions'),
    sockets: Count('sockets attached'),
    counters: Type.Object({
      sessions_opened: Count('sessions opened'),
      sessions_closed: Count('sessions closed by DELETE'),
      sessions_dropped_idle: Count('sessions dropped with no socket for idle_ms'),
      sessions_refused_full: Count('session openings refused at sessions_max'),
      attaches_refused: Count('sockets refused (unknown session, bad token)'),
      frames_relayed: Count('frames handed to the other side'),
      frames_held: Count('frames held for a side not yet connected'),
      frames_dropped: Count('frames dropped: the other side gone or its hold full'),
      frames_refused_size: Count('frames above frame_bytes_max (socket closed 1009)'),
      frames_refused_rate: Count('frames above the rate (socket closed 1008)'),
      bytes_relayed: Count('bytes handed to the other side'),
    }),
    limits: Type.Object({
      sessions_max: Count('connect.sessions_max'),
      token_ttl_ms: Count('connect.token_ttl_ms'),
      idle_ms: Count('connect.idle_ms'),
      frame_bytes_max: Count('connect.frame_bytes_max'),
      frames_per_second: Count('connect.frames_per_second'),
      frame_burst: Count('connect.frame_burst'),
      pending_frames_max: Count('connect.pending_frames_max'),
    }),
  },
  { examples: [STATUS_EXAMPLE] },
);

const SidParams = Type.Object({ sid: Type.String({ pattern: SID_PATTERN }) });

/** The base URL the returned URIs point at: the body's `node`, or this request's scheme and Host. */
function baseUrl(node: string | undefined, protocol: string, host: string): string {
  return (node ?? `${protocol}://${host}`).replace(/\/+$/, '');
}

export function connectRoutes(d: RouteDeps, relay: Relay): RouteDef[] {
  const common = { tags: TAGS, visibility: 'public' as const, nodeLocal: true };
  return [
    defineRoute({
      ...common,
      method: 'POST',
      url: '/v1/connect/session',
      operationId: 'openConnectSession',
      summary: 'Open a Connect session: single-use tokens for the app and the wallet',
      description: `${NODE_LOCAL}The app computes \`sid\` (SHA-256 of its X25519 public key, base64url) and gets one token per role, each valid once and only within connect.token_ttl_ms; the app shows \`wallet_uri\` (with its key added as \`pk\`) to the wallet. Both sides then open ${CONNECT_WS_PATH} on this node.`,
      errorStatuses: [409, 503],
      schema: { body: SessionBody, response: { 201: SessionView } },
      handler: (req, reply) => {
        const { sid, node } = req.body;
        const opened = relay.open(sid);
        if ('code' in opened)
          throw d.errors.create(
            opened.code,
            opened.code === 'connect_sessions_full'
              ? { limit: relay.limits.sessionsMax, retry_after_s: 5 }
              : { sid },
          );
        const base = baseUrl(node, req.protocol, req.host);
        const ws = base.replace(/^http/, 'ws');
        return reply.code(201).send({
          sid,
          wallet_uri: `torana-connect:${sid}?node=${encodeURIComponent(base)}&token=${opened.tokens.wallet}`,
          app_uri: `${ws}${CONNECT_WS_PATH}?sid=${sid}&role=app`,
          token_app: opened.tokens.app,
          token_wallet: opened.tokens.wallet,
        });
      },
    }),
    defineRoute({
      ...common,
      method: 'DELETE',
      url: '/v1/connect/session/:sid',
      operationId: 'closeConnectSession',
      summary: 'Close a Connect session and its sockets',
      description: `${NODE_LOCAL}Either side ends the pairing; its sockets close with 1000 "session closed".`,
      errorStatuses: [404],
      schema: { params: SidParams, response: { 204: Type.Null({ description: 'closed' }) } },
      handler: (req, reply) => {
        if (!relay.close(req.params.sid))
          throw d.errors.create('connect_session_unknown', { sid: req.params.sid });
        return reply.code(204).send();
      },
    }),
    defineRoute({
      ...common,
      method: 'GET',
      url: '/v1/connect/status',
      operationId: 'getConnectStatus',
      summary: "The Connect relay's counters and limits on this node",
      description: `${NODE_LOCAL}Counts since the node started; the limits are this node's configuration.`,
      schema: { response: { 200: StatusView } },
      handler: () => {
        const s = relay.status();
        const l = relay.limits;
        return {
          ...s,
          limits: {
            sessions_max: l.sessionsMax,
            token_ttl_ms: l.tokenTtlMs,
            idle_ms: l.idleMs,
            frame_bytes_max: l.frameBytesMax,
            frames_per_second: l.framesPerSecond,
            frame_burst: l.frameBurst,
            pending_frames_max: l.pendingFramesMax,
          },
        };
      },
    }),
  ];
}

/** The token among the offered subprotocols, next to CONNECT_PROTOCOL (undefined without it). */
export function offeredToken(header: string | string[] | undefined): string | undefined {
  const offered = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (!offered.includes(CONNECT_PROTOCOL)) return undefined;
  return offered.find((p) => p !== CONNECT_PROTOCOL);
}

/** Screens a socket of the relay: its session, role and token; the handler relaying its frames. */
export function acceptConnectSocket(
  d: RouteDeps,
  relay: Relay,
  req: IncomingMessage,
): GatewayError | WsOpenHandler {
  const q = new URLSearchParams((req.url ?? '').split('?')[1] ?? '');
  const sid = q.get('sid') ?? '';
  const role = q.get('role') ?? '';
  if (!SID.test(sid)) return gatewayError('bad_request', { field: 'sid', pattern: SID_PATTERN });
  if (!(CONNECT_ROLES as readonly string[]).includes(role))
    return gatewayError('bad_request', { field: 'role', allowed: [...CONNECT_ROLES] });
  // The socket is bound before the handshake so that the refusal is an HTTP answer; what reaches it
  // before the connection is open waits here for those few moments.
  let ctx: WsContext | undefined;
  const early: { frame: Uint8Array; binary: boolean }[] = [];
  let closedEarly: { code: number; reason: string } | undefined;
  const deliver = (c: WsContext, frame: Uint8Array, binary: boolean) =>
    void c.send(binary ? frame : Buffer.from(frame).toString('utf8'));
  const peer: RelayPeer = {
    send: (frame, binary) =>
      ctx === undefined ? void early.push({ frame, binary }) : deliver(ctx, frame, binary),
    close: (code, reason) => {
      if (ctx === undefined) closedEarly = { code, reason };
      else ctx.close(code, reason);
    },
  };
  const r = role as ConnectRole;
  const refusal = relay.attach(sid, r, offeredToken(req.headers['sec-websocket-protocol']), peer);
  if (refusal !== undefined)
    return refusal.code === 'connect_session_unknown'
      ? d.errors.create(refusal.code, { sid })
      : d.errors.create(refusal.code, { reason: refusal.reason, role: r });
  req.socket.once('close', () => relay.detach(sid, r, peer));
  return (ws, c) => {
    ctx = c;
    for (const f of early.splice(0)) deliver(c, f.frame, f.binary);
    if (closedEarly !== undefined) return c.close(closedEarly.code, closedEarly.reason);
    ws.on('message', (data, binary) => {
      const out = relay.frame(sid, r, wsMessageBytes(data), binary);
      if (out === 'rate_limited') c.close(WS_CLOSE.policyViolation, 'frame rate exceeded');
      else if (out === 'too_large') c.close(WS_CLOSE.messageTooBig, 'frame too large');
    });
  };
}

/** Serves the relay's WebSocket on the gateway's server (its caps, rate limiter, origin check). */
export function installConnectSocket(app: GatewayApp, d: RouteDeps, relay: Relay): void {
  registerWsRoute(app, CONNECT_WS_PATH, () => undefined, {
    operationId: 'connectRelaySocket',
    summary: 'The Connect relay socket of one side (app or wallet) of a session',
    description: `${NODE_LOCAL}WebSocket endpoint: query \`sid\` and \`role\` (app or wallet); offer the subprotocols \`${CONNECT_PROTOCOL}\` and the role's token (browsers cannot set other headers). 401 connect_token_invalid, 404 connect_session_unknown before the handshake. Frames are relayed as they are, binary or text. Plain GET answers 426.`,
    tags: TAGS,
    gate: { visibility: 'public', profile: d.profile },
    protocol: CONNECT_PROTOCOL,
    limits: { frameBytesMax: relay.limits.frameBytesMax },
    errorStatuses: [400, 401, 404],
    accept: (req) => acceptConnectSocket(d, relay, req),
    family: { name: 'connect', app: true },
  });
}
