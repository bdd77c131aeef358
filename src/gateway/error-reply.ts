// The one place that turns a failure into an HTTP answer. Everything, including Fastify's own FST_ERR_*
// errors, becomes a registry code with its 4xx status; a 5xx `internal_error` is reserved for real bugs and
// is logged. Error bodies negotiate like answers: JSON `{ code, message, details }` unless the client
// prefers the codec.

import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_VERSION_HEADER, apiHeaders } from './api-version.js';
import type { GatewayApp } from './context.js';
import { boundErrorBody } from './error-bounds.js';
import { type GatewayError, gatewayError, isGatewayError, retryAfterSeconds } from './errors.js';
import { createMethodIndex } from './method-index.js';
import { methodLabel } from './metrics.js';
import { errorFormat, MEDIA_TYPES } from './negotiate.js';
import { clientKey } from './rate-limit.js';
import { keepConnectionToDrain } from './refused-body.js';

/** Validation problems reported back to the client, at most this many. */
export const VALIDATION_ISSUES_MAX = 10;

const FASTIFY_CODES: Readonly<Record<string, Parameters<typeof gatewayError>[0]>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'body_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'bad_request',
  FST_ERR_VALIDATION: 'bad_request',
  FST_ERR_BAD_URL: 'bad_request',
  FST_ERR_MAX_PARAM_LENGTH: 'bad_request',
  FST_ERR_NOT_FOUND: 'not_found',
};

const BY_STATUS: Readonly<Record<number, Parameters<typeof gatewayError>[0]>> = {
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  408: 'request_timeout',
  413: 'body_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  431: 'headers_too_large',
};

interface FrameworkErrorShape {
  code?: unknown;
  statusCode?: unknown;
  validation?: unknown;
  validationContext?: unknown;
}

function validationDetails(err: FrameworkErrorShape): Record<string, unknown> {
  const issues = Array.isArray(err.validation) ? (err.validation as Record<string, unknown>[]) : [];
  return {
    location: typeof err.validationContext === 'string' ? err.validationContext : 'request',
    issues: issues.slice(0, VALIDATION_ISSUES_MAX).map((i) => ({
      path: typeof i.instancePath === 'string' ? i.instancePath : '',
      message: typeof i.message === 'string' ? i.message : 'invalid',
    })),
  };
}

/** Maps any thrown value to a registry error; `bug` is true only for what no client input explains. */
export function toGatewayError(
  err: unknown,
  knownCode: (code: string) => boolean,
): { error: GatewayError; bug: boolean } {
  if (isGatewayError(err)) {
    if (knownCode(err.code)) return { error: err, bug: false };
    return { error: gatewayError('internal_error'), bug: true };
  }
  const shape = (typeof err === 'object' && err !== null ? err : {}) as FrameworkErrorShape;
  const mapped = typeof shape.code === 'string' ? FASTIFY_CODES[shape.code] : undefined;
  if (mapped !== undefined) {
    return {
      error: gatewayError(mapped, mapped === 'bad_request' ? validationDetails(shape) : {}),
      bug: false,
    };
  }
  const status = typeof shape.statusCode === 'number' ? shape.statusCode : 500;
  if (status >= 400 && status < 500)
    return { error: gatewayError(BY_STATUS[status] ?? 'bad_request'), bug: false };
  return { error: gatewayError('internal_error'), bug: true };
}

export function sendError(req: FastifyRequest, reply: FastifyReply, error: GatewayError): FastifyReply {
  const gw = req.server.gateway;
  gw.metrics.rejected.inc({ reason: error.code });
  // Framework errors raised before the onRequest hooks (bad URL encoding) still get the version headers.
  if (!reply.hasHeader(API_VERSION_HEADER)) reply.headers(apiHeaders(gw.apiVersions.default, gw.apiVersions));
  if (error.code === 'invalid_codec_body') gw.metrics.codecDecodeFailures.inc();
  reply.code(error.status);
  const wait = retryAfterSeconds(error);
  if (wait !== undefined) reply.header('retry-after', wait);
  if (error.status === 426) reply.header('upgrade', 'websocket');
  // A body the parser refused: its client reads this answer instead of a reset connection (refused-body.ts).
  keepConnectionToDrain(req, reply);
  const encode = gw.encodeErrorCodec;
  const body = boundErrorBody(error.toBody());
  if (encode !== undefined && errorFormat(req.headers.accept, true) === 'codec') {
    return reply.type(MEDIA_TYPES.codec).send(Buffer.from(encode(body)));
  }
  return reply.type('application/json; charset=utf-8').send(JSON.stringify(body));
}

/**
 * Fastify's `frameworkErrors` option: errors raised by the router before any hook runs (bad percent-encoding,
 * overlong parameter). Fastify answers these outside any route, so no onResponse hook runs: they are
 * counted here, under the `unmatched` route label, or they would be missing from http_requests_total.
 */
export function frameworkErrorHandler(err: unknown, req: FastifyRequest, reply: FastifyReply): void {
  // Router failures run no hooks, so the rate limiter of the onRequest gate is taken here: otherwise
  // malformed URLs would be a way to load the node without spending any budget.
  const decision = req.server.gateway.rateLimiter.take(clientKey(req.ip));
  const error = decision.ok
    ? toGatewayError(err, (code) => req.server.gateway.errors.has(code)).error
    : gatewayError('rate_limited', { retry_after_s: decision.retryAfterS });
  sendError(req, reply, error);
  const metrics = req.server.gateway.metrics;
  const labels = { route: 'unmatched', method: methodLabel(req.method) };
  metrics.requests.inc({ ...labels, status: String(error.status) });
  metrics.duration.observe(labels, reply.elapsedTime / 1000);
}

export function installErrorHandlers(app: GatewayApp): void {
  app.setErrorHandler((err, req, reply) => {
    const { error, bug } = toGatewayError(err, (code) => app.gateway.errors.has(code));
    if (bug) req.log.error({ err }, 'internal error while answering a request');
    if (reply.sent || reply.raw.headersSent) {
      reply.raw.destroy();
      return reply;
    }
    return sendError(req, reply, error);
  });
  // Built on the first 404, when the route table is complete (no route can be added after ready).
  let methods: ReturnType<typeof createMethodIndex> | undefined;
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0] ?? '';
    methods ??= createMethodIndex(app.gateway.routes);
    const allowed = methods.allowed(path);
    if (allowed.length > 0 && !allowed.includes(req.method)) {
      reply.header('allow', allowed.join(', '));
      return sendError(req, reply, gatewayError('method_not_allowed', { method: req.method, allowed }));
    }
    return sendError(req, reply, gatewayError('not_found', { method: req.method, path: path.slice(0, 256) }));
  });
}
