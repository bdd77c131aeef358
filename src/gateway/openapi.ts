// The OpenAPI 3.1 document of THIS node (generated from the live route table, so it lists exactly what this node serves).
// Built by
// @fastify/swagger in dynamic mode from the same schemas Fastify validates with; this module adds what
// the schemas cannot say: the error answers of every route (schema `ErrorBody`, codes in the `ErrorCode`
// enum from the registry), the codec media type where a route offers it, and text/SSE media types.

import { STATUS_CODES } from 'node:http';
import swagger from '@fastify/swagger';
import type { FastifySchema } from 'fastify';
import { Type } from 'typebox';
import type { GatewayApp, RouteMeta } from './context.js';
import type { ErrorRegistry } from './errors.js';
import { MEDIA_TYPES } from './negotiate.js';
import { shareResponseSchemas } from './openapi-components.js';
import type { RouteDef } from './route-table.js';

export interface OpenApiInfo {
  title: string;
  version: string;
  description?: string;
}

/** Statuses documented on a route registered without a RouteDef (none of ours). */
const FALLBACK_ERROR_STATUSES = [400, 406, 429, 500];
const ERROR_BODY_REF = { $ref: '#/components/schemas/ErrorBody' };
const BINARY = { type: 'string', contentMediaType: MEDIA_TYPES.codec };

type Json = Record<string, unknown>;
interface Operation {
  operationId?: string;
  requestBody?: { required?: boolean; content?: Json };
  responses?: Record<string, { description: string; content?: Json }>;
}

function errorComponents(errors: ErrorRegistry): Json {
  return {
    ErrorCode: { type: 'string', enum: Object.keys(errors.specs).sort(), description: 'Stable error codes.' },
    ErrorBody: {
      type: 'object',
      required: ['code', 'message', 'details'],
      additionalProperties: false,
      properties: {
        code: { $ref: '#/components/schemas/ErrorCode' },
        message: { type: 'string' },
        details: { type: 'object', additionalProperties: true },
      },
    },
  };
}

function decorateOperation(op: Operation, meta: RouteMeta | undefined, errors: ErrorRegistry): void {
  const responses = op.responses ?? {};
  op.responses = responses;
  const codec = meta?.formats.offers.includes('codec') === true;
  if (codec) {
    for (const [status, response] of Object.entries(responses)) {
      if (status.startsWith('2'))
        response.content = { ...response.content, [MEDIA_TYPES.codec]: { schema: BINARY } };
    }
  }
  if (meta?.bodyFormats.includes('codec') === true) {
    const body = op.requestBody ?? { required: true, content: {} };
    body.content = { ...body.content, [MEDIA_TYPES.codec]: { schema: BINARY } };
    op.requestBody = body;
  }
  for (const status of meta?.errorStatuses ?? FALLBACK_ERROR_STATUSES) {
    if (responses[String(status)] !== undefined) continue;
    const codes = errors.codesWithStatus(status);
    const content: Json = { [MEDIA_TYPES.json]: { schema: ERROR_BODY_REF } };
    if (codec) content[MEDIA_TYPES.codec] = { schema: BINARY };
    const phrase = STATUS_CODES[status] ?? 'Error';
    const description = codes.length > 0 ? `${phrase}. Error codes: ${codes.join(', ')}.` : `${phrase}.`;
    responses[String(status)] = { description, content };
  }
}

/**
 * A route ending in a wildcard (`…/*`: the rest of the path, slashes included) as documented: the rest is
 * the path parameter `{path}` (Fastify names it `*`, which is no parameter name in OpenAPI).
 */
export function documentedWildcard(
  schema: FastifySchema,
  url: string,
): { schema: FastifySchema; url: string } {
  if (!url.endsWith('/*')) return { schema, url };
  const params = schema.params as { properties?: Record<string, unknown>; required?: string[] } | undefined;
  const props = params?.properties;
  if (props === undefined || !('*' in props)) return { schema, url: `${url.slice(0, -1)}:path` };
  const { '*': rest, ...others } = props;
  const renamed = {
    ...params,
    properties: { ...others, path: rest },
    required: (params?.required ?? []).map((r) => (r === '*' ? 'path' : r)),
  };
  return { schema: { ...schema, params: renamed }, url: `${url.slice(0, -1)}:path` };
}

/** Per-route schema tweaks for the document only (validation is untouched). */
function transformRoute(
  app: GatewayApp,
  original: FastifySchema,
  originalUrl: string,
): { schema: FastifySchema; url: string } {
  const { schema, url } = documentedWildcard(original, originalUrl);
  const meta = schema.operationId === undefined ? undefined : app.gateway.routeMeta.get(schema.operationId);
  if (meta === undefined) return { schema, url };
  const produces = meta.formats.offers.filter((f) => f !== 'codec').map((f) => MEDIA_TYPES[f]);
  const consumes = meta.bodyFormats.filter((f) => f !== 'codec').map((f) => MEDIA_TYPES[f]);
  const local = meta.nodeLocal ? `Node-local: ${schema.description ?? ''}`.trim() : schema.description;
  const description = meta.restricted
    ? `${local ?? ''} Not served under this node's telemetry profile: answers 503.`.trim()
    : local;
  return {
    schema: {
      ...schema,
      ...(description === undefined ? {} : { description }),
      ...(meta.nodeLocal ? { 'x-ledger-node-local': true } : {}),
      ...(meta.family === undefined ? {} : { 'x-ledger-family': meta.family.name }),
      ...(meta.family?.app === true ? { 'x-ledger-app-api': true } : {}),
      produces: produces.length > 0 ? produces : [MEDIA_TYPES.codec],
      ...(consumes.length > 0 ? { consumes } : {}),
    },
    url,
  };
}

/** Must be awaited before any route is added: @fastify/swagger collects routes as they are added. */
export async function registerOpenApi(app: GatewayApp, info: OpenApiInfo): Promise<void> {
  await app.register(swagger, {
    openapi: { openapi: '3.1.0', info, components: { schemas: {} } },
    refResolver: {
      // Shared schemas keep their $id as their component name instead of `def-N`.
      buildLocalReference: (json, _base, _fragment, i) =>
        typeof json.$id === 'string' ? json.$id : `def-${i}`,
    },
    transform: ({ schema, url }) => transformRoute(app, schema, url),
    transformObject: (document) => {
      const doc = ('openapiObject' in document ? document.openapiObject : {}) as Json & {
        paths?: Record<string, Record<string, Operation>>;
        components?: Json;
      };
      const components = (doc.components ?? {}) as { schemas?: Json };
      const shared = shareResponseSchemas(doc.paths ?? {});
      components.schemas = { ...components.schemas, ...shared, ...errorComponents(app.gateway.errors) };
      doc.components = components;
      for (const item of Object.values(doc.paths ?? {})) {
        for (const op of Object.values(item)) {
          const meta = op.operationId === undefined ? undefined : app.gateway.routeMeta.get(op.operationId);
          decorateOperation(op, meta, app.gateway.errors);
        }
      }
      return doc;
    },
  });
}

/**
 * `GET /openapi` and `GET /openapi.json`: the same document, always public. The document (about 1 MB of
 * JSON on a full node) is serialized once, on the first request, and its bytes are served from then on:
 * @fastify/swagger builds the object once too, after the routes are final.
 */
export function openApiRoutes(app: GatewayApp): RouteDef[] {
  let bytes: Buffer | undefined;
  const serve: RouteDef['handler'] = (_req, reply) => {
    bytes ??= Buffer.from(JSON.stringify(app.swagger()), 'utf8');
    return reply.type('application/json; charset=utf-8').send(bytes);
  };
  const schema = {
    response: { 200: Type.Object({}, { additionalProperties: true, description: 'OpenAPI 3.1 document' }) },
  };
  const common: Pick<RouteDef, 'method' | 'tags' | 'visibility' | 'schema' | 'handler'> = {
    method: 'GET',
    tags: ['meta'],
    visibility: 'public',
    schema,
    handler: serve,
  };
  return [
    {
      ...common,
      url: '/openapi',
      operationId: 'getOpenApi',
      summary: 'OpenAPI document of the active routes',
    },
    { ...common, url: '/openapi.json', operationId: 'getOpenApiJson', summary: 'OpenAPI document (alias)' },
  ];
}
