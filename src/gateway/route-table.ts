// The shape of a route family (one route table per family, `gateway/routes/<family>.ts`).
// Every family file is a list of RouteDef; registerRoutes turns them into Fastify routes with the same
// hooks in the same order:
//   1. telemetry profile gate (503 telemetry_profile_restricted; profiles.ts)
//   2. operator authentication for 'operator' routes (operator-auth.ts), or the route's own `auth`
//      (signed app requests, signed-request.ts)
//   3. answer negotiation (406 not_acceptable; negotiate.ts) -> `req.responseFormat`
//   4. request content type (415 unsupported_media_type) before the body is read
//   5. a route with `answers`: the answer kept for this URL since the last commit, sent at once
// and records the route's metadata for the OpenAPI document (openapi.ts).

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { RouteGenericInterface } from 'fastify/types/route.js';
import type { TSchema } from 'typebox';
import { AssertionError } from '../util/assert.js';
import { type AnswerCache, answerKey, sendAnswer } from './answer-cache.js';
import type { GatewayApp, RouteMeta } from './context.js';
import { gatewayError } from './errors.js';
import { type Format, type FormatOffer, JSON_ONLY, MEDIA_TYPES, negotiate } from './negotiate.js';
import type { OperatorAuth } from './operator-auth.js';
import { profileAllows, profilesAllowing, type TelemetryProfile, type Visibility } from './profiles.js';
import type { RequestAuth } from './signed-request.js';

export type { Visibility } from './profiles.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RouteSchema {
  params?: TSchema;
  querystring?: TSchema;
  body?: TSchema;
  headers?: TSchema;
  response?: Record<number, TSchema>;
}

export type RouteHandler = (req: FastifyRequest, reply: FastifyReply) => unknown;

export interface RouteDef {
  method: HttpMethod;
  url: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  visibility: Visibility;
  /** Body limit of this route; the server's `bodyBytesMax` when absent. */
  bodyBytesMax?: number;
  /** Answer formats; JSON only when absent. */
  formats?: FormatOffer;
  /** Accepted request body formats; `['json']` for POST/PUT when absent, none for GET/DELETE. */
  bodyFormats?: readonly Format[];
  /** Further error statuses the handler answers with (e.g. 404, 409), for the OpenAPI document. */
  errorStatuses?: readonly number[];
  schema: RouteSchema;
  handler: RouteHandler;
  /** Request authentication of a public route (e.g. signed app requests); 401/403/409 documented. */
  auth?: RequestAuth;
  /**
   * State kept on this node only, not replicated (a module's store, sessions, its view of peers):
   * the OpenAPI description begins with "Node-local:" and the operation has `x-ledger-node-local`.
   */
  nodeLocal?: boolean;
  /** A POST that only reads (its key in a JSON body): an MCP tool for every caller, read-only. */
  readsOnly?: boolean;
  /**
   * The cache the handler answers from (answer-cache.ts: `answerCached`, `respondCached`, with no extra
   * key). A request whose URL, format and API version were answered since the last commit is answered
   * from it right after negotiation, before Fastify validates the URL again and dispatches to the handler:
   * the same URL passed the same validation when its answer was kept. Public GET routes without `auth`
   * only (checked when the route is added).
   */
  answers?: AnswerCache;
}

export interface RouteContext {
  profile: TelemetryProfile;
  operatorAuth: OperatorAuth;
  /** The route family registering these routes (gateway/family.ts): named in the OpenAPI document. */
  family?: RouteFamilyTag;
}

/** `x-ledger-family` (its name) and, for an application family, `x-ledger-app-api: true` in OpenAPI. */
export interface RouteFamilyTag {
  readonly name: string;
  readonly app: boolean;
}

export type TypedRequest<S extends RouteSchema> = FastifyRequest<
  RouteGenericInterface,
  RawServerDefault,
  RawRequestDefaultExpression,
  S,
  TypeBoxTypeProvider
>;

/** A RouteDef whose handler sees typed params, query and body (TypeBox `Static` of the schema). */
export function defineRoute<S extends RouteSchema>(
  def: Omit<RouteDef, 'schema' | 'handler'> & {
    schema: S;
    handler: (req: TypedRequest<S>, reply: FastifyReply) => unknown;
  },
): RouteDef {
  return def as unknown as RouteDef;
}

/** Content types accepted for each body format (the first is the canonical one). */
const BODY_MEDIA: Readonly<Record<Format, readonly string[]>> = {
  json: ['application/json'],
  codec: ['application/x-codec'],
  xml: ['application/xml', 'text/xml'],
  text: ['text/plain'],
  sse: [],
};

function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

function hasBody(req: FastifyRequest): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function routeMeta(def: RouteDef, profile: TelemetryProfile, family?: RouteFamilyTag): RouteMeta {
  const formats = def.formats ?? JSON_ONLY;
  if (!formats.offers.includes(formats.default)) {
    throw new AssertionError(`route ${def.operationId}: default format ${formats.default} is not offered`);
  }
  const bodyFormats = def.bodyFormats ?? (def.method === 'POST' || def.method === 'PUT' ? ['json'] : []);
  const restricted = !profileAllows(profile, def.visibility);
  const statuses = new Set<number>([400, 406, 429, 500, ...(def.errorStatuses ?? [])]);
  if (bodyFormats.length > 0) for (const s of [413, 415]) statuses.add(s);
  if (def.visibility === 'operator') for (const s of [401, 403]) statuses.add(s);
  if (def.auth !== undefined) for (const s of [401, 403, 409]) statuses.add(s);
  if (restricted) statuses.add(503);
  return {
    operationId: def.operationId,
    visibility: def.visibility,
    formats,
    bodyFormats,
    errorStatuses: [...statuses].sort((a, b) => a - b),
    restricted,
    nodeLocal: def.nodeLocal === true,
    readsOnly: def.readsOnly === true,
    ...(family === undefined ? {} : { family }),
    signed: def.auth !== undefined,
  };
}

/** A route's onRequest hook in Fastify's callback form: no promise per request on the hot path. */
type Hook = (req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => void;

function requestHooks(
  url: string,
  meta: RouteMeta,
  ctx: RouteContext,
  auth: RequestAuth | undefined,
  answers: AnswerCache | undefined,
): Hook[] {
  // Every first hook below names the route for the metrics (`req.metricsRoute`, metrics.ts).
  if (meta.restricted) {
    const details = { profile: ctx.profile, served_by: profilesAllowing(meta.visibility) };
    return [
      (req, _reply, done) => {
        req.metricsRoute = url;
        done(gatewayError('telemetry_profile_restricted', details));
      },
    ];
  }
  const hooks: Hook[] = [];
  if (meta.visibility === 'operator') {
    hooks.push((req, _reply, done) => {
      req.metricsRoute = url;
      ctx.operatorAuth.onRequest(req).then(() => done(), done);
    });
  } else if (auth !== undefined) {
    hooks.push((req, _reply, done) => {
      req.metricsRoute = url;
      auth.onRequest(req).then(() => done(), done);
    });
  }
  const accepted = meta.bodyFormats.flatMap((f) => BODY_MEDIA[f]);
  // Answer negotiation, then the request's content type (before the body is read), then a kept answer,
  // in one hook.
  hooks.push((req, reply, done) => {
    req.metricsRoute = url;
    const n = negotiate(req.headers.accept, meta.formats);
    if (!n.ok) {
      const offered = meta.formats.offers.map((f) => MEDIA_TYPES[f]);
      done(gatewayError('not_acceptable', { reason: n.reason, offered }));
      return;
    }
    req.responseFormat = n.format;
    if (accepted.length > 0 && hasBody(req)) {
      const media = mediaTypeOf(req.headers['content-type']);
      if (!accepted.includes(media)) {
        done(gatewayError('unsupported_media_type', { content_type: media.slice(0, 100), accepted }));
        return;
      }
    }
    if (answers !== undefined) {
      const hit = answers.peek(answerKey(req));
      // Answered here: Fastify runs no later stage but the answer's own (onSend, onResponse).
      if (hit !== undefined) {
        sendAnswer(reply, hit);
        return;
      }
    }
    done();
  });
  return hooks;
}

/** Adds one route; exported for the gateway's own routes (OpenAPI, WebSocket paths). */
export function addRoute(app: GatewayApp, def: RouteDef, ctx: RouteContext): void {
  const meta = routeMeta(def, ctx.profile, ctx.family);
  const known = app.gateway.routeMeta;
  if (known.has(def.operationId)) throw new AssertionError(`duplicate operationId ${def.operationId}`);
  known.set(def.operationId, meta);
  const operator = def.visibility === 'operator' && !meta.restricted;
  const auth = meta.restricted ? undefined : operator ? ctx.operatorAuth : def.auth;
  if (
    def.answers !== undefined &&
    (def.method !== 'GET' || def.auth !== undefined || def.visibility === 'operator')
  )
    throw new AssertionError(
      `route ${def.operationId}: answers early only on GET routes without authentication`,
    );
  app.route({
    method: def.method,
    url: def.url,
    schema: {
      ...def.schema,
      operationId: def.operationId,
      summary: def.summary,
      tags: def.tags,
      ...(def.description === undefined ? {} : { description: def.description }),
    },
    ...(def.bodyBytesMax === undefined ? {} : { bodyLimit: def.bodyBytesMax }),
    onRequest: requestHooks(def.url, meta, ctx, operator ? undefined : auth, def.answers),
    ...(auth !== undefined
      ? {
          preParsing: [(req, reply, payload) => auth.preParsing(req, reply, payload)],
          preValidation: [(req: FastifyRequest) => auth.preValidation(req)],
        }
      : {}),
    handler: def.handler,
  });
}

export function registerRoutes(app: GatewayApp, defs: readonly RouteDef[], ctx: RouteContext): void {
  for (const def of defs) addRoute(app, def, ctx);
}

/** Sends `value` in the negotiated format: JSON (route schema serializer) or codec bytes. */
export function sendNegotiated(
  req: FastifyRequest,
  reply: FastifyReply,
  value: unknown,
  encodeCodec?: (value: unknown) => Uint8Array,
): FastifyReply {
  if (req.responseFormat === 'codec') {
    if (encodeCodec === undefined)
      throw new AssertionError(`route ${req.url} offers the codec without an encoder`);
    return reply.type(MEDIA_TYPES.codec).send(Buffer.from(encodeCodec(value)));
  }
  return reply.send(value);
}
