// Event and block streams:
//   GET /v1/events/sse   SSE over the event bus: `id:` = envelope id, `event:` = transaction | block |
//                        data, `data:` = compact JSON of the event; `filter` (event-filter.ts);
//                        resumption from Last-Event-ID / ?last_event_id= (sse.ts)
//   GET /events          WebSocket event subscription (ws-events.ts)
//   GET /block/stream    WebSocket stream of committed blocks, following the tip (block-stream.ts)
// One EventHub per server serialises each event once for every subscriber of both event routes.

import { Counter } from 'prom-client';
import { Type } from 'typebox';
import { BlockEncodings, BlockStreamSession, parseBlockRequest } from '../block-stream.js';
import type { GatewayApp } from '../context.js';
import type { RouteDeps } from '../deps.js';
import { gatewayError, isGatewayError } from '../errors.js';
import { EVENT_FILTER_FIELDS, FILTER_TEXT_CHARS_MAX } from '../event-filter.js';
import { EventHub } from '../event-hub.js';
import { resolveEventFilter, resolveEventFilterText } from '../event-ids.js';
import { withNames } from '../id-name-words.js';
import { defineRoute, type RouteDef } from '../route-table.js';
import { serveSse } from '../sse.js';
import { EventSubscriptionView } from '../views/events.js';
import { registerWsRoute, WS_CLOSE, type WsContext } from '../ws.js';
import { type EventRequest, EventSocketSession, filterKeyOf, parseEventRequest } from '../ws-events.js';

const TAGS = ['streams'];

type StreamCloses = Counter<'stream' | 'reason'>;

/** Ended streams by route and reason: lagged clients are what an operator sizes buffers by. */
function streamCloses(app: GatewayApp): StreamCloses {
  return new Counter({
    name: 'gateway_stream_closes_total',
    help: 'Event and block streams ended, by stream (sse, ws_events, ws_blocks) and reason.',
    labelNames: ['stream', 'reason'],
    registers: [app.gateway.metrics.registry],
  });
}

/** The SSE query; the filter's description words the names taken in place of ids (id-name-words.ts). */
const sseQuerystring = () =>
  Type.Object({
    filter: Type.Optional(
      Type.String({
        description: withNames(
          `JSON filter expression (at most ${FILTER_TEXT_CHARS_MAX} characters) over the fields ${EVENT_FILTER_FIELDS.join(', ')}`,
          (w) => `; account, definition and asset take ${w.a}, resolved when the stream opens`,
        ),
      }),
    ),
    last_event_id: Type.Optional(
      Type.String({ description: 'Resume after this event id (for clients that cannot send Last-Event-ID)' }),
    ),
  });

/** A connection carries one stream subscription; a later message is a protocol misuse (close 1008). */
function oneRequestOnly(socket: { on(event: 'message', fn: () => void): unknown }, ctx: WsContext): void {
  socket.on('message', () => ctx.close(WS_CLOSE.policyViolation, 'one subscription per connection'));
}

function takeSlot(ctx: WsContext): boolean {
  if (ctx.acquireSubscription()) {
    ctx.onClose(() => ctx.releaseSubscription());
    return true;
  }
  ctx.close(WS_CLOSE.policyViolation, 'subscription limit reached');
  return false;
}

/**
 * Starts a `/events` stream subscription once the names in place of ids in its filter are resolved (event-ids.ts),
 * at the committed height when it opens; a name naming nothing closes 1008 `not_found: …`.
 */
async function subscribeResolved(
  d: RouteDeps,
  ctx: WsContext,
  parsed: { request: EventRequest; filter: unknown },
  start: (request: EventRequest) => void,
  refused: () => void,
): Promise<void> {
  let open = true;
  ctx.onClose(() => {
    open = false;
  });
  let reason: string;
  try {
    const r = await resolveEventFilter(d.ports, parsed.filter, d.limits.filterDepthMax);
    if (r.ok) {
      if (open) start({ ...parsed.request, match: r.match, filterKey: filterKeyOf(r.expr) });
      return;
    }
    reason = `invalid filter at ${r.details.path}: ${r.details.reason}`;
  } catch (e) {
    if (!isGatewayError(e)) throw e;
    reason = `${e.code}: ${JSON.stringify(e.details)}`;
  }
  refused();
  if (open) ctx.close(WS_CLOSE.policyViolation, reason);
}

function registerSockets(app: GatewayApp, d: RouteDeps, hub: EventHub, closes: StreamCloses): void {
  const onError = (err: unknown) => app.log.error({ err }, 'stream failed');
  const queueEventsMax = app.gateway.limits.wsSendQueueMax;
  registerWsRoute(
    app,
    '/events',
    (socket, first, ctx, binary) => {
      const parsed = parseEventRequest(first, binary, {
        schema: d.schema,
        filterDepthMax: d.limits.filterDepthMax,
        query: d.ports.query,
      });
      if (!parsed.ok) {
        closes.inc({ stream: 'ws_events', reason: 'invalid' });
        return ctx.close(WS_CLOSE.policyViolation, parsed.reason);
      }
      if (!takeSlot(ctx)) return;
      oneRequestOnly(socket, ctx);
      const onEnd = (reason: string) => closes.inc({ stream: 'ws_events', reason });
      const start = (request: EventRequest) =>
        new EventSocketSession(ctx, request, queueEventsMax, onEnd).start(hub);
      subscribeResolved(d, ctx, parsed, start, () =>
        closes.inc({ stream: 'ws_events', reason: 'invalid' }),
      ).catch(onError);
    },
    {
      operationId: 'subscribeEvents',
      summary:
        'WebSocket event stream: first message {"filter","since"} as JSON text or a framed EventSubscription',
      tags: TAGS,
      // Public under every profile (docs/configuration.md "Telemetry profiles": neither event nor block streams are gated).
      gate: { visibility: 'public', profile: d.profile },
    },
  );
  const encodings = new BlockEncodings(d.schema);
  registerWsRoute(
    app,
    '/block/stream',
    (socket, first, ctx, binary) => {
      const parsed = parseBlockRequest(first, binary);
      if (!parsed.ok) {
        closes.inc({ stream: 'ws_blocks', reason: 'invalid' });
        return ctx.close(WS_CLOSE.policyViolation, parsed.reason);
      }
      if (!takeSlot(ctx)) return;
      ctx.onClose(() => closes.inc({ stream: 'ws_blocks', reason: 'closed' }));
      oneRequestOnly(socket, ctx);
      const deps = { chain: d.ports.chain, events: d.ports.events, encodings, onError };
      new BlockStreamSession(ctx, parsed.request, deps).start();
    },
    {
      operationId: 'streamBlocks',
      summary: 'WebSocket stream of committed blocks from a start height ({"from": n} or 8-byte u64 LE)',
      tags: TAGS,
      // Public under every profile (docs/configuration.md "Telemetry profiles": neither event nor block streams are gated).
      gate: { visibility: 'public', profile: d.profile },
    },
  );
}

/** SSE routes, and the WebSocket paths (which also appear as GET routes answering 426 without an upgrade). */
export function streamRoutes(app: GatewayApp, d: RouteDeps): RouteDef[] {
  if (!d.schema.has(EventSubscriptionView.name!)) d.schema.register(EventSubscriptionView);
  const hub = new EventHub(d.ports.events, d.schema, (err) =>
    app.log.error({ err }, 'event subscriber failed'),
  );
  const closes = streamCloses(app);
  registerSockets(app, d, hub, closes);
  return [
    defineRoute({
      method: 'GET',
      url: '/v1/events/sse',
      operationId: 'streamEventsSse',
      summary: 'Server-sent events of the event bus, resumable with Last-Event-ID',
      description:
        'Each message: `id:` (event id), `event:` (transaction | block | data), `data:` (compact JSON ' +
        'of the event). On lag: `event: lagged` {last_sent_id} then close; resume with Last-Event-ID. ' +
        'A resume id older than the history: `event: gone` {last_event_id} then close. Ids are stable ' +
        'across restarts: height × 2^24 + position in the block for committed events; pending ' +
        'notifications (Queued, Expired) follow the tip block and are replayed only within one run.',
      tags: TAGS,
      visibility: 'public',
      formats: { default: 'sse', offers: ['sse'] },
      errorStatuses: [404, 429],
      schema: {
        querystring: sseQuerystring(),
        response: { 200: Type.String({ description: 'text/event-stream' }) },
      },
      handler: async (req, reply) => {
        // Names in the filter name what they name now, when the stream opens (event-ids.ts).
        const filter = await resolveEventFilterText(d.ports, req.query.filter, d.limits.filterDepthMax);
        if (!filter.ok) throw gatewayError('invalid_filter', filter.details);
        const match = filter.match;
        serveSse(req, reply, hub, {
          filter: (e) => match(hub.fieldsOf(e)),
          // The same resolved filter is the same filter: its subscribers share one evaluation.
          filterKey: `sse:${JSON.stringify(filter.expr)}`,
          onClose: (reason) => closes.inc({ stream: 'sse', reason }),
        });
      },
    }),
  ];
}
