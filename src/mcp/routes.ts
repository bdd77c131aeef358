// The MCP bridge's routes (Model Context Protocol "Streamable HTTP" transport):
//   POST /v1/mcp  one JSON-RPC 2.0 message; a request is answered with one JSON object (200), a
//                 notification or response with 202 and no body. Batches are not taken (the protocol
//                 dropped them in 2025-06-18): an array body is 400 bad_request.
//   GET  /v1/mcp  with JSON accepted: what the bridge serves (protocol versions, tool count); asking for
//                 an event stream (the transport's optional server-to-client stream, which this stateless
//                 server does not open) is 405, as the transport says.
// An `Authorization: Bearer <token>` operator session (gateway/operator-sessions.ts) shows the operator tools; a token
// that does not verify is refused with its 401 before anything runs. The POST is rate limited and body
// limited like every route, and each tool call counts as one more request of the same client.

import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { GatewayApp } from '../gateway/context.js';
import { type ErrorRegistry, gatewayError, isGatewayError } from '../gateway/errors.js';
import { bearerToken, type OperatorSessionVerifier } from '../gateway/operator-auth.js';
import { defineRoute, type RouteDef } from '../gateway/route-table.js';
import { callTool } from './dispatch.js';
import { handleRpc, MCP_PROTOCOL_VERSIONS, type McpCaller } from './rpc.js';
import { buildTools, type ToolSpec } from './tools.js';

export const MCP_PATH = '/v1/mcp';
const OWN = new Set(['postMcp', 'getMcp']);
const tags = ['mcp'];

export interface McpPort {
  /** Operator sessions; without it operator tools are never listed. */
  sessions?: OperatorSessionVerifier;
  errors: ErrorRegistry;
}

/** The tools of this server, built once from its OpenAPI document (the route table is fixed after start). */
function toolCatalogue(app: GatewayApp): (operator: boolean) => readonly ToolSpec[] {
  let all: ToolSpec[] | undefined;
  let open: ToolSpec[] | undefined;
  return (operator) => {
    all ??= buildTools(app, app.swagger() as Parameters<typeof buildTools>[1], OWN);
    open ??= all.filter((t) => !t.operator);
    return operator ? all : open;
  };
}

/** True when the caller holds a valid operator session; throws the 401 of a token that does not verify. */
function operatorSession(req: FastifyRequest, port: McpPort): boolean {
  const token = bearerToken(req);
  if (token === undefined) return false;
  if (isGatewayError(token)) throw token;
  if (port.sessions === undefined) throw gatewayError('operator_session_unknown');
  const s = port.sessions.verify(token);
  if (isGatewayError(s)) throw s;
  return true;
}

function checkProtocolVersion(req: FastifyRequest, port: McpPort): void {
  const v = req.headers['mcp-protocol-version'];
  if (v === undefined || (typeof v === 'string' && MCP_PROTOCOL_VERSIONS.includes(v))) return;
  throw port.errors.create('mcp_protocol_version_unsupported', {
    version: String(v).slice(0, 32),
    supported: MCP_PROTOCOL_VERSIONS,
  });
}

const Message = Type.Object(
  { jsonrpc: Type.Literal('2.0'), method: Type.Optional(Type.String({ maxLength: 256 })) },
  { additionalProperties: true, description: 'one JSON-RPC 2.0 message (request, notification or response)' },
);
const Info = Type.Object({
  protocol_versions: Type.Array(Type.String()),
  transport: Type.String(),
  tools: Type.Integer({ description: 'tools listed without an operator session' }),
  operator_tools: Type.Integer({ description: 'further tools listed with an operator session' }),
});

export function mcpRoutes(app: GatewayApp, port: McpPort): RouteDef[] {
  const tools = toolCatalogue(app);
  return [
    defineRoute({
      method: 'POST',
      url: MCP_PATH,
      operationId: 'postMcp',
      summary: 'MCP JSON-RPC 2.0: initialize, ping, tools/list, tools/call (streamable HTTP, JSON answers)',
      description:
        'Tools are generated from this OpenAPI document: read-only operations, plus operator operations for a caller with an operator session (Authorization: Bearer).',
      tags,
      visibility: 'public',
      errorStatuses: [401],
      schema: { body: Message, response: { 200: Type.Object({}, { additionalProperties: true }) } },
      handler: async (req, reply) => {
        checkProtocolVersion(req, port);
        const operator = operatorSession(req, port);
        const caller: McpCaller = {
          serverName: 'torana',
          serverVersion: String(app.gateway.apiVersions.default),
          tools: () => tools(operator),
          call: (tool, args) => callTool(app, tool, args, req, operator),
        };
        const answer = await handleRpc(req.body as Record<string, unknown>, caller);
        return answer === undefined ? reply.code(202).send() : reply.send(answer);
      },
    }),
    defineRoute({
      method: 'GET',
      url: MCP_PATH,
      operationId: 'getMcp',
      summary: 'What the MCP bridge serves: protocol versions and tool counts',
      description:
        'A request that accepts only text/event-stream (the optional server stream of the transport) answers 405: this server sends nothing unasked.',
      tags,
      visibility: 'public',
      errorStatuses: [405],
      schema: { response: { 200: Info } },
      handler: (_req, reply) => {
        const open = tools(false).length;
        return reply.send({
          protocol_versions: MCP_PROTOCOL_VERSIONS,
          transport: 'streamable-http',
          tools: open,
          operator_tools: port.sessions === undefined ? 0 : tools(true).length - open,
        });
      },
    }),
  ];
}

/**
 * Before answer negotiation (which would say 406): a GET of /v1/mcp asking for an event stream only is the
 * transport's server-stream request, answered 405 as the transport specifies.
 */
export function installMcpStreamRefusal(app: GatewayApp): void {
  app.addHook('onRequest', (req, reply, done) => {
    if (req.method !== 'GET' || req.routeOptions.url !== MCP_PATH) return done();
    const accept = req.headers.accept ?? '';
    if (!/text\/event-stream/i.test(accept) || /application\/json|\*\/\*/i.test(accept)) return done();
    reply.header('allow', 'GET, POST');
    const details = {
      method: 'GET',
      accept: 'text/event-stream',
      reason: 'this server opens no event stream',
    };
    done(gatewayError('method_not_allowed', details));
  });
}
