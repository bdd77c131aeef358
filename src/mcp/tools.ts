// The MCP tool catalogue, generated from this node's live OpenAPI document:
// one tool per JSON operation, named by its operationId, whose input schema is the operation's path and
// query parameters (flat, by name) plus `body` for a JSON request body. Not tools: streams (SSE and
// WebSocket paths), routes answering only text or codec bytes, routes the telemetry profile closes (they
// would only answer 503), and the MCP routes themselves. Read-only by default: GET operations and the
// public POST reads (RouteDef.readsOnly) for every caller; operator operations (any method) only for a caller with a valid operator session; no route that
// needs a signed app request (the bridge cannot sign for the caller). No tool takes
// a key: the gateway has no route that does (style 4 is refused).

import type { GatewayApp, RouteMeta } from '../gateway/context.js';
import { AssertionError } from '../util/assert.js';

type Json = Record<string, unknown>;

export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  /** HTTP method, upper case. */
  readonly method: string;
  /** OpenAPI path (`/v1/accounts/{id}`). */
  readonly path: string;
  readonly pathParams: readonly string[];
  readonly queryParams: readonly string[];
  readonly hasBody: boolean;
  /** Listed and callable only with an operator session. */
  readonly operator: boolean;
  readonly inputSchema: Json;
  readonly annotations: { readOnlyHint: boolean; openWorldHint: false };
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Json;
}
interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Json }> };
}
interface Document {
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Json> };
}

/** References nested deeper than this are left as an open schema (`{}`), never followed forever. */
const REF_DEPTH_MAX = 16;
const REF_PREFIX = '#/components/schemas/';

/** A copy of `schema` with every `#/components/schemas/…` reference replaced by the schema it names. */
export function inlineRefs(schema: unknown, components: Record<string, Json>, depth = 0): unknown {
  if (Array.isArray(schema)) return schema.map((s) => inlineRefs(s, components, depth));
  if (schema === null || typeof schema !== 'object') return schema;
  const o = schema as Json;
  if (typeof o.$ref === 'string') {
    const target = o.$ref.startsWith(REF_PREFIX) ? components[o.$ref.slice(REF_PREFIX.length)] : undefined;
    if (target === undefined || depth >= REF_DEPTH_MAX) return {};
    return inlineRefs(target, components, depth + 1);
  }
  const out: Json = {};
  for (const [k, v] of Object.entries(o)) {
    if (k === '$id' || k === '$schema') continue;
    out[k] = inlineRefs(v, components, depth);
  }
  return out;
}

/** Property names that would carry a secret key; no route takes a private key (docs/security.md). */
const KEY_PROPERTY = /^(private_?key|secret_?key|seed|mnemonic)$/i;

/** True when a schema anywhere names a property that would carry a private key. */
export function takesKey(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.some(takesKey);
  if (schema === null || typeof schema !== 'object') return false;
  const props = (schema as Json).properties;
  if (props !== null && typeof props === 'object' && Object.keys(props).some((k) => KEY_PROPERTY.test(k)))
    return true;
  return Object.values(schema as Json).some(takesKey);
}

function inputSchema(op: Operation, components: Record<string, Json>): Json {
  const properties: Json = {};
  const required: string[] = [];
  for (const p of op.parameters ?? []) {
    if (p.in !== 'path' && p.in !== 'query') continue;
    const schema = inlineRefs(p.schema ?? {}, components) as Json;
    properties[p.name] = p.description === undefined ? schema : { ...schema, description: p.description };
    if (p.required === true || p.in === 'path') required.push(p.name);
  }
  const body = op.requestBody?.content?.['application/json']?.schema;
  if (body !== undefined) {
    if ('body' in properties) throw new AssertionError(`${op.operationId}: a parameter is named body`);
    properties.body = inlineRefs(body, components);
    if (op.requestBody?.required !== false) required.push('body');
  }
  return {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

/** GET reads, and the public POST routes that only read (RouteDef.readsOnly, e.g. resolving a name). */
const readsOnly = (method: string, meta: RouteMeta) =>
  method === 'get' || (method === 'post' && meta.readsOnly === true);

function isTool(app: GatewayApp, method: string, path: string, meta: RouteMeta, own: ReadonlySet<string>) {
  // The bridge signs nothing: a route that needs a signed app request could only ever refuse.
  if (own.has(meta.operationId) || meta.restricted || meta.signed) return false;
  if (app.gateway.wsRoutes.has(path.replace(/\{(\w+)\}/g, ':$1'))) return false;
  const offers = meta.formats.offers;
  if (!offers.includes('json') || offers.includes('sse')) return false;
  if (meta.bodyFormats.length > 0 && !meta.bodyFormats.includes('json')) return false;
  return readsOnly(method, meta) || meta.visibility === 'operator';
}

/** Every tool of this node's document, in document order; `own` are the MCP routes' operation ids. */
export function buildTools(app: GatewayApp, doc: Document, own: ReadonlySet<string>): ToolSpec[] {
  const components = doc.components?.schemas ?? {};
  const tools: ToolSpec[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item)) {
      const meta = op.operationId === undefined ? undefined : app.gateway.routeMeta.get(op.operationId);
      if (meta === undefined || !isTool(app, method, path, meta, own)) continue;
      const input = inputSchema(op, components);
      // No tool takes a key, even if a route ever did (none does): such an operation is left out.
      if (takesKey(input)) continue;
      const params = op.parameters ?? [];
      const text = [op.summary, op.description].filter((s) => s !== undefined && s !== '').join('. ');
      tools.push({
        name: meta.operationId,
        description: `${method.toUpperCase()} ${path}: ${text}`,
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: params.filter((p) => p.in === 'query').map((p) => p.name),
        hasBody: op.requestBody?.content?.['application/json'] !== undefined,
        operator: meta.visibility === 'operator',
        inputSchema: input,
        annotations: { readOnlyHint: readsOnly(method, meta), openWorldHint: false },
      });
    }
  }
  return tools;
}
