// The MCP bridge against a live node on a real socket, driven by the official MCP client
// (@modelcontextprotocol/sdk: Client + StreamableHTTPClientTransport): tools generated from the node's
// OpenAPI document, tool calls answering exactly what the HTTP routes answer, operator tools only with an
// operator session, and the family absent (404, not in OpenAPI) unless `mcp.enabled`.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type ServedTestNode, startServedNode } from '../../test/helpers/served.js';
import { ed25519Sign } from '../crypto/ed25519.js';
import { Ed25519KeyPair } from '../crypto/signer.js';
import { toHex } from '../util/hex.js';

const SEED = new Uint8Array(32).fill(0x41);
const KEY = Ed25519KeyPair.fromSeed(SEED).publicKeyText();

// biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked field by field.
type J = any;

async function connect(url: string, token?: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/v1/mcp`), {
    ...(token === undefined ? {} : { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
  });
  const client = new Client({ name: 'torana-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

async function signIn(url: string): Promise<string> {
  const post = async (path: string, body: unknown) =>
    (await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((r) => r.json())) as J;
  const c = await post('/v1/operator/session/challenge', { public_key: KEY });
  const signature = toHex(ed25519Sign(SEED, new TextEncoder().encode(c.challenge)));
  const s = await post('/v1/operator/session', { challenge_id: c.challenge_id, public_key: KEY, signature });
  return s.token as string;
}

const textOf = (r: J) => JSON.parse(r.content[0].text);

describe('MCP bridge (mcp.enabled)', () => {
  let t: ServedTestNode;
  let client: Client;
  const getJson = async (path: string): Promise<J> => (await fetch(`${t.url}${path}`)).json();

  before(async () => {
    t = await startServedNode({ 'mcp.enabled': true, 'operator.public_keys': [KEY] });
    client = await connect(t.url);
  });
  after(async () => {
    await client.close();
    await t.stopAll();
  });

  it('lists the JSON read operations as tools, without streams, writes or operator tools', async () => {
    assert.equal(client.getServerVersion()?.name, 'torana');
    const { tools } = await client.listTools();
    const names = new Set(tools.map((x) => x.name));
    for (const name of ['getStatus', 'listDomains', 'getDomain', 'getRuntimeAbiActive', 'getOpenApiJson'])
      assert.ok(names.has(name), `${name} is a tool`);
    for (const name of [
      'streamEventsSse', // SSE
      'subscribeEvents', // WebSocket
      'streamConsensusStatus',
      'getMetrics', // text only
      'submitTransaction', // a write
      'listConferenceSignals', // needs a signed app request
      'getConferenceOffer',
      'proposeRuntimeUpgrade', // operator
      'listOperatorSessions', // operator
      'postMcp',
      'getMcp',
    ])
      assert.ok(!names.has(name), `${name} is not a tool without a session`);
    // The public reads that take their key in a POST body are tools too, read-only.
    const postReads = [
      'resolveAccountAlias',
      'resolveAccountAliasIndex',
      'listAccountAliases',
      'resolveAssetAlias',
      'getMultisigSpec',
      'listMultisigProposals',
      'getMultisigProposal',
      'getAssetTransferControl',
      'getDefinitionTransferControl',
    ];
    for (const name of postReads) {
      const tool = tools.find((x) => x.name === name);
      assert.ok(tool !== undefined, `${name} is a tool`);
      assert.equal(tool.annotations?.readOnlyHint, true, name);
    }
    const getDomain = tools.find((x) => x.name === 'getDomain')!;
    assert.deepEqual(getDomain.inputSchema.required, ['id']);
    assert.equal(getDomain.annotations?.readOnlyHint, true);
    const listDomains = tools.find((x) => x.name === 'listDomains')!;
    assert.ok('limit' in (listDomains.inputSchema.properties ?? {}));
  });

  it('tool calls answer what the HTTP routes answer; an error answer is a tool error with its code', async () => {
    const list = await client.callTool({ name: 'listDomains', arguments: { limit: 5, offset: 0 } });
    assert.equal(list.isError, false);
    const http = await getJson('/v1/domains?limit=5&offset=0');
    assert.deepEqual(textOf(list), http);
    assert.ok(http.items.length > 0);
    const id = http.items[0].id as string;
    const one = await client.callTool({ name: 'getDomain', arguments: { id } });
    assert.deepEqual(textOf(one), await getJson(`/v1/domains/${encodeURIComponent(id)}`));
    assert.deepEqual(one.structuredContent, textOf(one));
    const abi = await client.callTool({ name: 'getRuntimeAbiActive', arguments: {} });
    assert.deepEqual(textOf(abi), await getJson('/v1/runtime/abi/active'));
    const alias = await client.callTool({
      name: 'resolveAccountAlias',
      arguments: { body: { alias: 'nobody@wonderland' } },
    });
    assert.equal(alias.isError, true, 'a POST read answers through the tool, here its 404');
    assert.match(JSON.stringify(alias.content), /not_found/);
    const missing = await client.callTool({ name: 'getDomain', arguments: { id: 'no_such_domain' } });
    assert.equal(missing.isError, true);
    const httpMissing = await fetch(`${t.url}/v1/domains/no_such_domain`);
    assert.equal(textOf(missing).code, ((await httpMissing.json()) as J).code);
    const bad = await client.callTool({ name: 'listDomains', arguments: { limit: 0 } });
    assert.deepEqual([bad.isError, textOf(bad).code], [true, 'invalid_pagination']);
    const stray = await client.callTool({ name: 'getDomain', arguments: { id, private_key: 'x' } });
    assert.deepEqual([stray.isError, textOf(stray).details.argument], [true, 'private_key']);
    await assert.rejects(client.callTool({ name: 'proposeRuntimeUpgrade', arguments: {} }), /unknown tool/);
  });

  it('an operator session shows and opens the operator tools; a bad token is refused with its 401', async () => {
    const token = await signIn(t.url);
    const op = await connect(t.url, token);
    try {
      const names = new Set((await op.listTools()).tools.map((x) => x.name));
      for (const name of ['proposeRuntimeUpgrade', 'listOperatorSessions', 'revokeOperatorSession'])
        assert.ok(names.has(name), `${name} is a tool with a session`);
      const sessions = await op.callTool({ name: 'listOperatorSessions', arguments: {} });
      assert.equal(sessions.isError, false);
      assert.equal(textOf(sessions).items[0].operator_key, KEY);
    } finally {
      await op.close();
    }
    await assert.rejects(connect(t.url, 'A'.repeat(43)), /401|operator_session_unknown/);
  });

  it('transport details: notifications 202, unknown protocol version 400, no server stream (405)', async () => {
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${t.url}/v1/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: JSON.stringify(body),
      });
    const note = await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    assert.deepEqual([note.status, await note.text()], [202, '']);
    const old = await post(
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { 'mcp-protocol-version': '1999-01-01' },
    );
    assert.deepEqual([old.status, ((await old.json()) as J).code], [400, 'mcp_protocol_version_unsupported']);
    const unknown = (await (await post({ jsonrpc: '2.0', id: 2, method: 'resources/list' })).json()) as J;
    assert.deepEqual([unknown.id, unknown.error.code], [2, -32601]);
    const batch = await post([{ jsonrpc: '2.0', id: 3, method: 'ping' }]);
    assert.equal(batch.status, 400);
    const stream = await fetch(`${t.url}/v1/mcp`, { headers: { accept: 'text/event-stream' } });
    assert.equal(stream.status, 405);
    assert.equal(((await stream.json()) as J).code, 'method_not_allowed');
    const info = (await getJson('/v1/mcp')) as J;
    assert.equal(info.tools, (await client.listTools()).tools.length);
    assert.ok(info.operator_tools > 0);
  });
});

describe('MCP bridge (default: mcp.enabled = false)', () => {
  it('is not registered: /v1/mcp answers 404 and is absent from the OpenAPI document', async () => {
    const t = await startServedNode();
    try {
      const res = await fetch(`${t.url}/v1/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      });
      assert.deepEqual([res.status, ((await res.json()) as J).code], [404, 'not_found']);
      const doc = (await (await fetch(`${t.url}/openapi.json`)).json()) as J;
      assert.equal(doc.paths['/v1/mcp'], undefined);
    } finally {
      await t.stopAll();
    }
  });
});
