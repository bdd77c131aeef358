// The MCP methods this node serves, over JSON-RPC 2.0 (Model Context Protocol, "Base protocol",
// "Lifecycle" and "Tools"): initialize, ping, tools/list, tools/call, and notifications (accepted, never
// answered). Stateless: no session id is issued, every request stands alone, and what a caller may list or
// call follows from the request itself (its operator session). Protocol errors are JSON-RPC errors
// (-32600 invalid request, -32601 unknown method, -32602 invalid params, also for an unknown tool);
// a failing tool is a result with `isError: true` (dispatch.ts).

import type { ToolResult } from './dispatch.js';
import type { ToolSpec } from './tools.js';

/** Newest first; an `initialize` asking for another version is answered with the first. */
export const MCP_PROTOCOL_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26'];

export const RPC_INVALID_REQUEST = -32600;
export const RPC_METHOD_NOT_FOUND = -32601;
export const RPC_INVALID_PARAMS = -32602;

type Id = string | number;
export type RpcAnswer =
  | { jsonrpc: '2.0'; id: Id | null; result: unknown }
  | { jsonrpc: '2.0'; id: Id | null; error: { code: number; message: string; data?: unknown } };

export interface McpCaller {
  readonly serverName: string;
  readonly serverVersion: string;
  /** The tools this caller may see and call. */
  tools(): readonly ToolSpec[];
  call(tool: ToolSpec, args: Record<string, unknown>): Promise<ToolResult>;
}

function error(id: Id | null, code: number, message: string, data?: unknown): RpcAnswer {
  return { jsonrpc: '2.0', id, error: { code, message, ...(data === undefined ? {} : { data }) } };
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** A request (answered), a notification or a response (undefined: nothing to answer). */
export async function handleRpc(
  message: Record<string, unknown>,
  caller: McpCaller,
): Promise<RpcAnswer | undefined> {
  const rawId = message.id;
  const hasId = rawId !== undefined;
  const id: Id | null = typeof rawId === 'string' || typeof rawId === 'number' ? rawId : null;
  if (message.jsonrpc !== '2.0') return error(id, RPC_INVALID_REQUEST, 'jsonrpc must be "2.0"');
  if (typeof message.method !== 'string') {
    // A client's response to a server request: this server sends none, so there is nothing to do.
    return hasId && ('result' in message || 'error' in message)
      ? undefined
      : error(id, RPC_INVALID_REQUEST, 'no method');
  }
  if (!hasId) return undefined;
  if (id === null) return error(null, RPC_INVALID_REQUEST, 'id must be a string or a number');
  const params = message.params === undefined ? {} : message.params;
  if (!isObject(params)) return error(id, RPC_INVALID_PARAMS, 'params must be an object');
  switch (message.method) {
    case 'initialize':
      return { jsonrpc: '2.0', id, result: initializeResult(params, caller) };
    case 'ping':
      return { jsonrpc: '2.0', id, result: {} };
    case 'tools/list':
      return { jsonrpc: '2.0', id, result: { tools: caller.tools().map(toolView) } };
    case 'tools/call':
      return callResult(id, params, caller);
    default:
      return error(id, RPC_METHOD_NOT_FOUND, `method not found: ${message.method.slice(0, 100)}`);
  }
}

function initializeResult(params: Record<string, unknown>, caller: McpCaller) {
  const asked = params.protocolVersion;
  const version =
    typeof asked === 'string' && MCP_PROTOCOL_VERSIONS.includes(asked) ? asked : MCP_PROTOCOL_VERSIONS[0]!;
  return {
    protocolVersion: version,
    capabilities: { tools: { listChanged: false } },
    serverInfo: { name: caller.serverName, version: caller.serverVersion },
    instructions:
      "Tools are this node's HTTP operations (read-only unless you hold an operator session); each result is the route's JSON answer.",
  };
}

function toolView(t: ToolSpec) {
  return { name: t.name, description: t.description, inputSchema: t.inputSchema, annotations: t.annotations };
}

async function callResult(id: Id, params: Record<string, unknown>, caller: McpCaller): Promise<RpcAnswer> {
  const name = params.name;
  if (typeof name !== 'string') return error(id, RPC_INVALID_PARAMS, 'params.name must be a string');
  const args = params.arguments === undefined ? {} : params.arguments;
  if (!isObject(args)) return error(id, RPC_INVALID_PARAMS, 'params.arguments must be an object');
  const tool = caller.tools().find((t) => t.name === name);
  if (tool === undefined) return error(id, RPC_INVALID_PARAMS, `unknown tool: ${name.slice(0, 100)}`);
  return { jsonrpc: '2.0', id, result: await caller.call(tool, args) };
}
