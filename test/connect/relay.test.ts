// The Connect relay through real sockets (docs/connect.md): a session's tokens open one socket each,
// once, for their own role only; a refused socket is an HTTP answer before the handshake; an app and a
// wallet paired with the SDK (the `ws` package as WebSocket) get a transaction signed by the wallet,
// submitted by the app and committed, while the node relays only sealed frames; DELETE closes the
// session; the status route counts it all. With `connect.enabled = false` nothing of it is served or
// documented.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import {
  CONNECT_SUBPROTOCOL,
  connectApp,
  connectKeyPair,
  connectSid,
  pairWallet,
  type WebSocketClass,
} from '../../src/modules/connect/sdk-connect.js';
import { instructions, ToranaClient, TransactionBuilder } from '../../src/sdk/index.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';
import { newAccount } from '../helpers/tx.js';

const Ws = WebSocket as unknown as WebSocketClass;

async function post(base: string, path: string, body: unknown) {
  const res = await fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, string> };
}

/** The names of the node's MCP tools. */
async function mcpTools(base: string): Promise<string[]> {
  const res = await fetch(`${base}/v1/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  const body = (await res.json()) as { result: { tools: { name: string }[] } };
  return body.result.tools.map((t) => t.name);
}

/** Opens a relay socket: 'open', or the refusal's status and code. */
function socket(
  url: string,
  protocols: string[],
): Promise<{ ws?: WebSocket; status?: number; code?: string }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, protocols);
    ws.on('open', () => resolve({ ws }));
    ws.on('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (c: Buffer) => {
        text += c.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, code: JSON.parse(text).code }));
    });
    ws.on('error', () => {});
  });
}

describe('Connect relay (served node)', () => {
  let t: ServedTestNode;
  before(async () => {
    t = await startServedNode({ 'gateway.rate_burst': 100_000, 'mcp.enabled': true });
  });
  after(async () => t?.stopAll());

  it('opens a session whose URIs point at this node; a sid already open is refused', async () => {
    const sid = connectSid(connectKeyPair().publicKey);
    const a = await post(t.url, '/v1/connect/session', { sid });
    assert.equal(a.status, 201);
    const host = t.url.replace(/^http:\/\//, '');
    assert.equal(a.body.app_uri, `ws://${host}/v1/connect/ws?sid=${sid}&role=app`);
    assert.ok(
      a.body.wallet_uri!.startsWith(`torana-connect:${sid}?node=${encodeURIComponent(t.url)}&token=`),
    );
    assert.ok(a.body.wallet_uri!.endsWith(a.body.token_wallet!));
    assert.equal((await post(t.url, '/v1/connect/session', { sid })).body.code, 'connect_session_exists');
    assert.equal((await post(t.url, '/v1/connect/session', { sid: 'short' })).status, 400);
    // Its read is an MCP tool; opening and closing sessions are not (they are not reads).
    const tools = (await mcpTools(t.url)).filter((n) => /connect/i.test(n));
    assert.deepEqual(tools, ['getConnectStatus']);
  });

  it("refuses the other role's token and a used token, before the handshake", async () => {
    const sid = connectSid(connectKeyPair().publicKey);
    const s = (await post(t.url, '/v1/connect/session', { sid })).body;
    const wsUrl = (role: string) => `${t.url.replace(/^http/, 'ws')}/v1/connect/ws?sid=${sid}&role=${role}`;
    const wrong = await socket(wsUrl('wallet'), [CONNECT_SUBPROTOCOL, s.token_app!]);
    assert.deepEqual(wrong, { status: 401, code: 'connect_token_invalid' });
    const none = await socket(wsUrl('app'), [CONNECT_SUBPROTOCOL]);
    assert.deepEqual(none, { status: 401, code: 'connect_token_invalid' });
    const first = await socket(wsUrl('app'), [CONNECT_SUBPROTOCOL, s.token_app!]);
    assert.ok(first.ws, 'the right token opens the socket');
    assert.equal(first.ws.protocol, CONNECT_SUBPROTOCOL);
    const again = await socket(wsUrl('app'), [CONNECT_SUBPROTOCOL, s.token_app!]);
    assert.deepEqual(again, { status: 401, code: 'connect_token_invalid' });
    const unknown = await socket(wsUrl('app').replace(sid, 'A'.repeat(43)), [CONNECT_SUBPROTOCOL, 'x']);
    assert.deepEqual(unknown, { status: 404, code: 'connect_session_unknown' });
    const closed = new Promise((r) => first.ws!.on('close', (code, reason) => r(`${code} ${reason}`)));
    assert.equal((await fetch(`${t.url}/v1/connect/session/${sid}`, { method: 'DELETE' })).status, 204);
    assert.equal(await closed, '1000 session closed');
    assert.equal((await fetch(`${t.url}/v1/connect/session/${sid}`, { method: 'DELETE' })).status, 404);
  });

  it('pairs an app and a wallet; the wallet signs, the app submits, it commits; frames are sealed', async () => {
    const relayed: Buffer[] = [];
    const send = WebSocket.prototype.send;
    // Every frame the node writes to a socket (server side): what the relay handed on.
    WebSocket.prototype.send = function (this: WebSocket, data: unknown, ...rest: unknown[]) {
      if ((this as unknown as { _isServer: boolean })._isServer)
        relayed.push(Buffer.from(data as Uint8Array));
      return (send as (...a: unknown[]) => void).call(this, data, ...rest);
    } as typeof send;
    try {
      const app = await connectApp({ url: t.url, WebSocket: Ws });
      const wallet = await pairWallet(app.pairingUri, {
        account: t.admin.id,
        signer: t.admin.key,
        approve: (p) => p.instructions.length === 1,
        WebSocket: Ws,
      });
      assert.equal((await app.wallet).account, t.admin.id);
      const payload = new TransactionBuilder(t.chainId, t.admin.id)
        .add(instructions.registerDomain('connect_shop'))
        .payload();
      const built = await app.requestSignature(payload);
      const r = await new ToranaClient({ url: t.url }).submitAndWait(built, { timeoutMs: 60_000 });
      assert.ok(r.blockHeight > 0);
      assert.ok(t.node.ledger.state.domain('connect_shop'), 'the domain is registered');
      assert.equal(wallet.signed.length, 1);
      // A payload of another authority is refused by the wallet.
      const other = new TransactionBuilder(t.chainId, newAccount('wonderland', 7).id)
        .add(instructions.registerDomain('no'))
        .payload();
      await assert.rejects(app.requestSignature(other), /declined: another authority/);
      const text = Buffer.concat(relayed).toString('latin1');
      assert.ok(relayed.length >= 4, `${relayed.length} frames relayed`);
      for (const word of ['connect_shop', 'sign_request', 'sign_result', 'hello', t.admin.id.slice(0, 20)])
        assert.ok(!text.includes(word), `a relayed frame holds "${word}"`);
      const status = (await (await fetch(`${t.url}/v1/connect/status`)).json()) as {
        counters: Record<string, number>;
        limits: Record<string, number>;
      };
      assert.ok(status.counters.frames_relayed! >= 5);
      assert.equal(status.limits.frame_bytes_max, 65_536);
      console.log(
        `connect: ${relayed.length} frames relayed (${Buffer.concat(relayed).length} bytes), none in plaintext; status ${JSON.stringify(status.counters)}`,
      );
      await app.close();
      wallet.close();
    } finally {
      WebSocket.prototype.send = send;
    }
  });
});

describe('Connect relay switched off', () => {
  let t: ServedTestNode;
  before(async () => {
    t = await startServedNode({ 'connect.enabled': false, 'mcp.enabled': true });
  });
  after(async () => t?.stopAll());

  it('serves none of its routes (404) and documents none', async () => {
    for (const [method, path] of [
      ['POST', '/v1/connect/session'],
      ['GET', '/v1/connect/status'],
      ['GET', '/v1/connect/ws'],
      ['DELETE', `/v1/connect/session/${'A'.repeat(43)}`],
    ] as const) {
      const res = await fetch(t.url + path, {
        method,
        ...(method === 'POST' ? { headers: { 'content-type': 'application/json' }, body: '{}' } : {}),
      });
      assert.equal(res.status, 404, `${method} ${path}`);
    }
    const doc = await (await fetch(`${t.url}/openapi.json`)).text();
    assert.ok(!doc.includes('/v1/connect'), 'no Connect path in the OpenAPI document');
    assert.ok(!(await mcpTools(t.url)).some((n) => /connect/i.test(n)), 'no Connect MCP tool');
  });
});
