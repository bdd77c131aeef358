// Route answers defined once as codec types (docs/codec.md §5): the same definition gives the binary
// form (when the client's Accept prefers the codec), the JSON form, and the JSON Schema documented in
// the OpenAPI document. Handlers call `respond`; route tables call `viewSchema`.

import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import type { Codec } from '../codec/codec.js';
import { encodeFrame } from '../codec/frame.js';
import { jsonSchemaOf } from '../codec/json-schema.js';
import type { SchemaRegistry } from '../codec/registry.js';
import { MEDIA_TYPES } from './negotiate.js';
import type { Visibility } from './profiles.js';
import type { RouteDef } from './route-table.js';

export function viewSchema(codec: Codec<never> | Codec<unknown>): TSchema {
  return jsonSchemaOf(codec) as unknown as TSchema;
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
  reply.code(status);
  if (req.responseFormat === 'codec') {
    if (codec.name !== undefined && !registry.has(codec.name)) registry.register(codec);
    return reply.type(MEDIA_TYPES.codec).send(Buffer.from(encodeFrame(registry, codec, value)));
  }
  return reply.type('application/json; charset=utf-8').send(JSON.stringify(codec.toJson(value)));
}

/**
 * A GET route whose whole job is to answer one view (JSON by default, the codec on request): the
 * common shape of status-like routes, declared once.
 */
export function viewRoute<T>(
  registry: SchemaRegistry,
  r: {
    url: string;
    operationId: string;
    summary: string;
    tags: string[];
    visibility: Visibility;
    errorStatuses?: readonly number[];
  },
  view: Codec<T>,
  value: () => T,
): RouteDef {
  return {
    method: 'GET',
    ...r,
    formats: { default: 'json', offers: ['json', 'codec'] },
    schema: { response: { 200: viewSchema(view as Codec<unknown>) } },
    handler: (req, reply) => respond(registry, req, reply, view, value()),
  };
}
