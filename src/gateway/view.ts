// Route answers defined once as codec types (docs/codec.md §5): the same definition gives the binary
// form (when the client's Accept prefers the codec), the JSON form, and the JSON Schema documented in
// the OpenAPI document. Handlers call `respond`; route tables call `viewSchema`.

import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import type { Codec } from '../codec/codec.js';
import { encodeFrame } from '../codec/frame.js';
import { jsonSchemaOf } from '../codec/json-schema.js';
import type { SchemaRegistry } from '../codec/registry.js';
import { type AnswerCache, answerCached, type RenderedAnswer } from './answer-cache.js';
import { type Format, MEDIA_TYPES } from './negotiate.js';
import type { Visibility } from './profiles.js';
import type { RouteDef } from './route-table.js';

export const JSON_MEDIA = 'application/json; charset=utf-8';

export function viewSchema(codec: Codec<never> | Codec<unknown>): TSchema {
  return jsonSchemaOf(codec) as unknown as TSchema;
}

/** `value` serialised as JSON, or as a framed codec message when that was negotiated. */
export function renderView<T>(
  registry: SchemaRegistry,
  format: Format,
  codec: Codec<T>,
  value: T,
): RenderedAnswer {
  if (format === 'codec') {
    if (codec.name !== undefined && !registry.has(codec.name)) registry.register(codec);
    return { contentType: MEDIA_TYPES.codec, body: Buffer.from(encodeFrame(registry, codec, value)) };
  }
  return { contentType: JSON_MEDIA, body: JSON.stringify(codec.toJson(value)) };
}

/** Sends `value` as JSON, or as a framed codec message when that was negotiated. */
export function respond<T>(
  registry: SchemaRegistry,
  req: FastifyRequest,
  reply: FastifyReply,
  codec: Codec<T>,
  value: T,
  status = 200,
): FastifyReply {
  const answer = renderView(registry, req.responseFormat, codec, value);
  return reply.code(status).type(answer.contentType).send(answer.body);
}

/**
 * Sends the answer of `value()` rendered with `codec`, from `cache` when the committed state has not
 * moved since the same URL was answered in the same format (answer-cache.ts). Only for answers that
 * depend on nothing but the committed state and the URL.
 */
export function respondCached<T>(
  registry: SchemaRegistry,
  cache: AnswerCache | undefined,
  req: FastifyRequest,
  reply: FastifyReply,
  codec: Codec<T>,
  value: () => T,
): FastifyReply | Promise<FastifyReply> {
  return answerCached(cache, req, reply, () => renderView(registry, req.responseFormat, codec, value()));
}

/**
 * A GET route whose whole job is to answer one view (JSON by default, the codec on request): the
 * common shape of status-like routes, declared once. With `cache`, the answer is kept per committed
 * state (answer-cache.ts): only for values that depend on nothing but the committed state.
 */
export function viewRoute<T>(
  registry: SchemaRegistry,
  r: {
    url: string;
    operationId: string;
    summary: string;
    description?: string;
    tags: string[];
    visibility: Visibility;
    errorStatuses?: readonly number[];
  },
  view: Codec<T>,
  value: () => T,
  cache?: AnswerCache,
): RouteDef {
  return {
    method: 'GET',
    ...r,
    formats: { default: 'json', offers: ['json', 'codec'] },
    schema: { response: { 200: viewSchema(view as Codec<unknown>) } },
    ...(cache === undefined ? {} : { answers: cache }),
    handler:
      cache === undefined
        ? (req, reply) => respond(registry, req, reply, view, value())
        : (req, reply) => respondCached(registry, cache, req, reply, view, value),
  };
}
