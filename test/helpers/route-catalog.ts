// The LIVE route table of a served node, joined with what the tests know about each route: path
// parameter values that name something real, hostile ones, example query strings and bodies. Cross-cutting
// gateway tests (profiles, OpenAPI, bad input) enumerate routes from here, never from a hand-written
// list, so a route family added later is covered the day it is registered. What this file knows about a
// route is only a better starting point: a route it has never heard of still gets values derived from
// its parameter names and from its OpenAPI parameters.

import { readFileSync } from 'node:fs';
import { encode, encodeFrame } from '../../src/codec/frame.js';
import { hash } from '../../src/crypto/hash.js';
import type { GatewayApp, RouteMeta } from '../../src/gateway/context.js';
import { type QueryPayload, QueryPayloadCodec, SignedQueryCodec } from '../../src/model/queries.js';
import { SCHEMA } from '../../src/model/schema.js';
import { SignedTransactionBatchCodec } from '../../src/model/transaction.js';
import { abiDescriptor, abiHashHex } from '../../src/runtime/abi.js';
import { buildTx, frameTx, type TestAccount } from './tx.js';

export interface OpenApiParameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: { enum?: unknown[]; type?: string };
}
export interface OpenApiOperation {
  operationId?: string;
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, unknown> };
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
export interface OpenApiDoc {
  openapi: string;
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, unknown> };
}

export interface LiveRoute {
  readonly method: string;
  /** Fastify pattern, e.g. `/v1/accounts/:id`. */
  readonly url: string;
  /** The same in OpenAPI form, `/v1/accounts/{id}`. */
  readonly openApiPath: string;
  readonly params: readonly string[];
  readonly operationId: string;
  readonly meta: RouteMeta;
  readonly operation: OpenApiOperation;
  /** 'ws' for WebSocket paths (a plain GET answers 426), 'sse' for event streams. */
  readonly stream: 'ws' | 'sse' | undefined;
}

/** The documented path of a route URL: `:name` → `{name}`, a trailing wildcard `*` → `{path}` (gateway/openapi.ts). */
export function openApiPathOf(url: string): string {
  return url.replace(/:(\w+)/g, '{$1}').replace(/\/\*$/, '/{path}');
}

export function paramNamesOf(url: string): string[] {
  return [...url.matchAll(/:(\w+)/g)].map((m) => m[1]!).concat(url.endsWith('/*') ? ['path'] : []);
}

/**
 * Every documented route of `app` with its metadata, in registration order. A non-hidden route missing
 * from the OpenAPI document or from the route metadata is an error here (the OpenAPI test says which).
 */
export function liveRoutes(app: GatewayApp, doc: OpenApiDoc): LiveRoute[] {
  const gw = app.gateway;
  const out: LiveRoute[] = [];
  for (const r of gw.routes) {
    if (r.hidden) continue;
    const openApiPath = openApiPathOf(r.url);
    const operation = doc.paths[openApiPath]?.[r.method.toLowerCase()];
    const operationId = operation?.operationId;
    const meta = operationId === undefined ? undefined : gw.routeMeta.get(operationId);
    if (operation === undefined || operationId === undefined || meta === undefined) {
      throw new Error(`route ${r.method} ${r.url} has no documented operation or no route metadata`);
    }
    const stream = gw.wsRoutes.has(r.url) ? 'ws' : meta.formats.default === 'sse' ? 'sse' : undefined;
    out.push({
      method: r.method,
      url: r.url,
      openApiPath,
      params: paramNamesOf(r.url),
      operationId,
      meta,
      operation,
      stream,
    });
  }
  return out;
}

export async function fetchOpenApi(baseUrl: string): Promise<OpenApiDoc> {
  const res = await fetch(`${baseUrl}/openapi.json`);
  if (res.status !== 200) throw new Error(`GET /openapi.json answered ${res.status}`);
  return (await res.json()) as OpenApiDoc;
}

/** Identifiers that exist on the node (read through its own list routes), for filling path parameters. */
export interface Samples {
  domainId: string;
  accountId: string;
  assetDefinitionId: string | undefined;
  nftId: string | undefined;
  blockHash: string;
  txHash: string;
  height: string;
  statusField: string;
}

async function firstItem(baseUrl: string, path: string, field: string): Promise<string | undefined> {
  const res = await fetch(`${baseUrl}${path}`, { headers: { accept: 'application/json' } });
  if (res.status !== 200) return undefined;
  const body = (await res.json()) as { items?: Record<string, unknown>[] };
  const v = body.items?.[0]?.[field];
  return typeof v === 'string' ? v : undefined;
}

export async function discoverSamples(baseUrl: string): Promise<Samples> {
  const zero = '0'.repeat(64);
  return {
    domainId: (await firstItem(baseUrl, '/v1/domains?limit=1', 'id')) ?? 'system',
    accountId: (await firstItem(baseUrl, '/v1/accounts?limit=1', 'id')) ?? 'nobody@system',
    assetDefinitionId: await firstItem(baseUrl, '/v1/assets/definitions?limit=1', 'id'),
    nftId: await firstItem(baseUrl, '/v1/nfts?limit=1', 'id'),
    blockHash: (await firstItem(baseUrl, '/v1/explorer/blocks?per_page=1', 'hash')) ?? zero,
    txHash: (await firstItem(baseUrl, '/v1/explorer/transactions?per_page=1', 'hash')) ?? zero,
    height: '1',
    statusField: 'blocks',
  };
}

/** Valid values of each parameter of the routes we know, by route pattern (first one preferred). */
function knownParam(url: string, param: string, s: Samples): (string | undefined)[] | undefined {
  if (url === '/status/:field') return [s.statusField, 'txs_approved'];
  if (url.startsWith('/v1/consensus/commit_qc/')) return [s.blockHash];
  if (url.startsWith('/v1/runtime/upgrades/')) return ['ab'.repeat(32)];
  if (url.startsWith('/v1/assets/definitions/:id')) return [s.assetDefinitionId];
  if (url.startsWith('/v1/accounts/:id')) return [s.accountId];
  if (url.startsWith('/v1/domains/:id')) return [s.domainId];
  if (url.startsWith('/v1/nfts/:id')) return [s.nftId];
  if (url.startsWith('/v1/explorer/transactions/')) return [s.txHash];
  if (param === 'height') return [s.height];
  return undefined;
}

/** Fallback by parameter name, for routes added after this file was written. */
function byName(param: string, s: Samples): (string | undefined)[] {
  if (/hash/i.test(param)) return [s.blockHash, s.txHash];
  if (/height|index|page|number/i.test(param)) return [s.height];
  if (/field/i.test(param)) return [s.statusField];
  return [s.accountId, s.domainId, s.assetDefinitionId, s.nftId, s.txHash, '1'];
}

export function validParamValues(route: Pick<LiveRoute, 'url'>, param: string, s: Samples): string[] {
  const values = knownParam(route.url, param, s) ?? byName(param, s);
  return values.filter((v): v is string => v !== undefined);
}

/**
 * Hostile path-segment texts, already in wire form: percent-encoding tricks (bad escapes, encoded
 * slashes and dots, NUL, overlong and invalid UTF-8, double encoding), overlong segments, and values of
 * the wrong shape for every kind of id.
 */
export const INVALID_PARAM_SEGMENTS: readonly string[] = [
  '%',
  '%zz',
  '%E0%A4%A',
  '%C0%AF',
  '%FF%FE',
  '%00',
  'a%00b',
  '%2F',
  '..%2F..%2Fetc%2Fpasswd',
  '%2E%2E',
  '%252F',
  '%F0%9F%98%80',
  '%E2%80%AE',
  'x'.repeat(101),
  'x'.repeat(5000),
  '-1',
  '0',
  '1.5',
  '1e308',
  '99999999999999999999999',
  'NaN',
  '0x10',
  'g'.repeat(64),
  'a'.repeat(63),
  'a'.repeat(65),
  'A'.repeat(64),
  '@@',
  'a@',
  '@b',
  'a#b#c#d',
  'a$',
  '$',
  '%20',
  '%0A',
  '%22%3E%3Cscript%3E',
  '__proto__',
  'constructor',
];

/** `url` with each `:param` replaced by the percent-encoded value (or a raw wire segment). */
export function fillPath(url: string, values: Readonly<Record<string, string>>, raw = false): string {
  return url.replace(/:(\w+)|\*$/g, (m, name: string | undefined) => {
    const key = name ?? 'path';
    const v = values[key];
    if (v === undefined) throw new Error(`no value for ${m} of ${url}`);
    return raw ? v : encodeURIComponent(v);
  });
}

/** The route with every parameter filled with its first valid value (routes without parameters: as is). */
export function validPath(route: LiveRoute, s: Samples): string {
  const values: Record<string, string> = {};
  for (const p of route.params) values[p] = validParamValues(route, p, s)[0] ?? '1';
  return fillPath(route.url, values);
}

/** A query string every route of ours accepts: each documented query parameter with a sensible value. */
export function exampleQuery(route: LiveRoute, s: Samples): string {
  const q = new URLSearchParams();
  for (const p of route.operation.parameters ?? []) {
    if (p.in !== 'query') continue;
    const value = exampleQueryValue(route, p, s);
    if (value !== undefined) q.set(p.name, value);
  }
  const text = q.toString();
  return text === '' ? '' : `?${text}`;
}

function exampleQueryValue(route: LiveRoute, p: OpenApiParameter, s: Samples): string | undefined {
  const e = p.schema?.enum?.[0];
  if (typeof e === 'string') return e;
  switch (p.name) {
    case 'limit':
    case 'per_page':
      return '5';
    case 'offset':
      return '0';
    case 'page':
    case 'from':
      return '1';
    case 'hash':
      return s.txHash;
    case 'sort':
      return 'id:asc';
    case 'filter':
      return route.stream === 'sse' ? '{"eq":["kind","block"]}' : '{"exists":"id"}';
    default:
      return p.required === true ? '1' : undefined;
  }
}

export interface ExampleBody {
  contentType: string;
  body: Uint8Array;
}

export interface BodyContext {
  chainId: string;
  admin: TestAccount;
}

const utf8 = (text: string) => new TextEncoder().encode(text);

/** A fresh log transaction of the admin: valid, and a new hash each call (creation time and nonce). */
export function exampleTransaction(ctx: BodyContext, nonce: number): Uint8Array {
  const log = { kind: 'Log' as const, level: { kind: 'Info' as const }, message: `bad-input ${nonce}` };
  return frameTx(buildTx(ctx.admin, [log], { chainId: ctx.chainId, nonce }));
}

let lastQueryMs = 0;

/**
 * The creation time of a test's next signed query: the clock, strictly increasing, so two identical
 * requests signed in the same millisecond still differ (the node refuses a replayed one, 409).
 */
export function queryTimeMs(): number {
  lastQueryMs = Math.max(Date.now(), lastQueryMs + 1);
  return lastQueryMs;
}

/** A signed query of the admin (by default the singular FindParameters). */
export function exampleQueryBody(
  ctx: BodyContext,
  request: QueryPayload['request'] = { kind: 'Singular', query: { kind: 'FindParameters' } },
): Uint8Array {
  const payload: QueryPayload = {
    chainId: ctx.chainId,
    authority: ctx.admin.id,
    creationTimeMs: queryTimeMs(),
    request,
  };
  const signature = ctx.admin.key.sign(hash(encode(QueryPayloadCodec, payload)));
  return encodeFrame(SCHEMA, SignedQueryCodec, { payload, signature });
}

/** A well-formed body for a route that takes one; `{}` as JSON for routes this file does not know. */
export function exampleBody(route: LiveRoute, ctx: BodyContext, nonce: number): ExampleBody | undefined {
  const formats = route.meta.bodyFormats;
  if (formats.length === 0) return undefined;
  if (route.url === '/transaction')
    return { contentType: 'application/x-codec', body: exampleTransaction(ctx, nonce) };
  if (route.url === '/query') return { contentType: 'application/x-codec', body: exampleQueryBody(ctx) };
  if (route.url === '/v1/transactions/batch') {
    const log = { kind: 'Log' as const, level: { kind: 'Info' as const }, message: `bad-input ${nonce}` };
    const tx = buildTx(ctx.admin, [log], { chainId: ctx.chainId, nonce });
    return {
      contentType: 'application/x-codec',
      body: encodeFrame(SCHEMA, SignedTransactionBatchCodec, [tx]),
    };
  }
  if (!formats.includes('json')) return undefined;
  const json = (v: unknown) => ({ contentType: 'application/json', body: utf8(JSON.stringify(v)) });
  if (route.url.endsWith('/query'))
    return json({ limit: 5, offset: 0, sort: 'id:desc', filter: { exists: 'id' } });
  if (route.url === '/v1/consensus/evidence/submit') return json({ evidence_hex: '00' });
  if (route.url === '/v1/runtime/upgrades/propose') {
    return json({
      name: `upgrade-${nonce}`,
      description: 'bad-input baseline',
      abi_version: 2,
      abi_hash: abiHashHex(abiDescriptor(2)),
      start_height: 1_000_000 + nonce,
    });
  }
  if (route.params.length > 0 && route.url.includes('/upgrades/')) return undefined;
  return json({});
}

/** The codes `docs/errors.md` documents (every table row `| \`code\` | status | meaning |`), with status. */
export function documentedErrorCodes(): Map<string, number> {
  const text = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
  const codes = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^\|\s*`([a-z0-9_]+)`\s*\|\s*(\d{3})\s*\|/.exec(line);
    if (m !== null) codes.set(m[1]!, Number(m[2]));
  }
  return codes;
}
