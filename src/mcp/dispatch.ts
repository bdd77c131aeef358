// A tool call is the HTTP request it stands for: dispatched into the same server with
// `inject`, so it passes the same hooks as a request from the network — the caller's address (rate limit),
// its Host header (host check), operator authentication (the caller's session token, forwarded), answer
// negotiation, body limits, schema validation and the one error envelope. A 2xx answer becomes the tool's
// result (its JSON text, and the parsed object as structured content); an error answer becomes a tool error
// carrying the error body (`{code, message, details}`).

import type { FastifyRequest } from 'fastify';
import type { GatewayApp } from '../gateway/context.js';
import type { ToolSpec } from './tools.js';

export interface ToolResult {
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError: boolean;
}

/** Arguments that do not fit the tool's input: answered as a tool error in the gateway's envelope. */
function argumentError(tool: ToolSpec, reason: string, name?: string): ToolResult {
  const body = {
    code: 'bad_request',
    message: `The arguments do not fit the tool ${tool.name}.`,
    details: { location: 'arguments', reason, ...(name === undefined ? {} : { argument: name }) },
  };
  return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body, isError: true };
}

function scalar(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

/** The URL of the call, or the argument error. */
function callUrl(tool: ToolSpec, args: Record<string, unknown>): string | ToolResult {
  const known = new Set([...tool.pathParams, ...tool.queryParams, ...(tool.hasBody ? ['body'] : [])]);
  for (const name of Object.keys(args)) if (!known.has(name)) return argumentError(tool, 'unknown', name);
  let url = tool.path;
  for (const name of tool.pathParams) {
    const v = scalar(args[name]);
    if (v === undefined) return argumentError(tool, 'missing', name);
    url = url.replace(`{${name}}`, encodeURIComponent(v));
  }
  const query = new URLSearchParams();
  for (const name of tool.queryParams) {
    const v = args[name];
    if (v === undefined) continue;
    // Structured query values (a list `filter`) travel as their JSON text, as the routes expect.
    query.set(name, scalar(v) ?? JSON.stringify(v));
  }
  const q = query.toString();
  return q === '' ? url : `${url}?${q}`;
}

function header(req: FastifyRequest, name: string): Record<string, string> {
  const v = req.headers[name];
  return typeof v === 'string' ? { [name]: v } : {};
}

function toolResult(status: number, text: string): ToolResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const structured =
    parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? { structuredContent: parsed as Record<string, unknown> }
      : {};
  return { content: [{ type: 'text', text }], ...structured, isError: status < 200 || status >= 300 };
}

/**
 * Calls `tool` with `args` as the client of `from`; `operator`: forward its session token (the caller was
 * checked to hold a valid one).
 */
export async function callTool(
  app: GatewayApp,
  tool: ToolSpec,
  args: Record<string, unknown>,
  from: FastifyRequest,
  operator: boolean,
): Promise<ToolResult> {
  const url = callUrl(tool, args);
  if (typeof url !== 'string') return url;
  const body = tool.hasBody ? args.body : undefined;
  const res = await app.inject({
    method: tool.method as 'GET',
    url,
    remoteAddress: from.ip,
    headers: {
      accept: 'application/json',
      ...header(from, 'host'),
      ...header(from, 'x-ledger-api-version'),
      ...(operator ? header(from, 'authorization') : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  return toolResult(res.statusCode, res.payload);
}
