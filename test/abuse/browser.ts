// Abuse scenario: a web page in the operator's browser attacks a loopback node.
// - DNS rebinding: the page's own name now resolves to 127.0.0.1, so its requests reach the node with
//   `Host: <hostile name>`; they are refused 421 `host_not_allowed` (gateway.allowed_hosts).
// - Cross-site WebSocket hijacking: the page opens a WebSocket to the node (browsers send `Origin` and
//   apply no CORS to handshakes); an origin outside gateway.cors_origins is refused 403
//   `origin_not_allowed`. Allowed origins and non-browser clients (no `Origin`) are admitted.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startServedNode } from '../helpers/served.js';
import { figure, jsonBodyOf, portOf, rawClient, statusOf, waitFor } from './clients.js';

const GOOD_ORIGIN = 'https://wallet.example';

/** One raw request with exactly `headers`; the status and error code of its answer. */
async function ask(port: number, path: string, headers: string[]) {
  const c = await rawClient(port);
  c.socket.write(`GET ${path} HTTP/1.1\r\n${headers.join('\r\n')}\r\nConnection: close\r\n\r\n`);
  await waitFor('an answer head', () => c.text().includes('\r\n\r\n') || c.isClosed());
  c.socket.destroy();
  return { status: statusOf(c.text()), code: jsonBodyOf(c.text())?.code };
}

const upgrade = () => [
  'Upgrade: websocket',
  'Connection: Upgrade',
  `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
  'Sec-WebSocket-Version: 13',
];

export async function browserAttacks(): Promise<void> {
  const t = await startServedNode({ 'gateway.cors_origins': [GOOD_ORIGIN] });
  const port = portOf(t.url);
  const host = `Host: 127.0.0.1:${port}`;
  try {
    const results = {
      'rebinding GET /health': await ask(port, '/health', [`Host: attacker.example:${port}`]),
      'rebinding GET /status': await ask(port, '/status', ['Host: attacker.example']),
      'rebinding WebSocket': await ask(port, '/events', [`Host: attacker.example:${port}`, ...upgrade()]),
      'hijack WebSocket': await ask(port, '/events', [
        host,
        'Origin: https://attacker.example',
        ...upgrade(),
      ]),
      'null-origin WebSocket': await ask(port, '/events', [host, 'Origin: null', ...upgrade()]),
      'loopback GET /health': await ask(port, '/health', [host]),
      'localhost GET /health': await ask(port, '/health', [`Host: localhost:${port}`]),
      'allowed-origin WebSocket': await ask(port, '/events', [host, `Origin: ${GOOD_ORIGIN}`, ...upgrade()]),
      'non-browser WebSocket': await ask(port, '/block/stream', [host, ...upgrade()]),
    };
    figure('browser attacks on a loopback node', {
      ...Object.fromEntries(Object.entries(results).map(([k, v]) => [k, `${v.status} ${v.code ?? ''}`])),
    });
    for (const k of ['rebinding GET /health', 'rebinding GET /status', 'rebinding WebSocket'] as const) {
      assert.deepEqual(results[k], { status: 421, code: 'host_not_allowed' }, k);
    }
    for (const k of ['hijack WebSocket', 'null-origin WebSocket'] as const) {
      assert.deepEqual(results[k], { status: 403, code: 'origin_not_allowed' }, k);
    }
    assert.equal(results['loopback GET /health'].status, 200);
    assert.equal(results['localhost GET /health'].status, 200);
    assert.equal(results['allowed-origin WebSocket'].status, 101);
    assert.equal(results['non-browser WebSocket'].status, 101);
  } finally {
    await t.stopAll();
  }
}
