// Abuse scenario: a few source addresses open streams until they hold every slot of the
// server-wide SSE and WebSocket caps. The per-address caps (`streams.sse_clients_per_ip_max`,
// `streams.ws_clients_per_ip_max`) refuse each address's extra streams with 429 `stream_limit_reached`,
// so a newcomer from another address is still admitted.

import assert from 'node:assert/strict';
import { startServedNode } from '../helpers/served.js';
import {
  figure,
  ip,
  jsonBodyOf,
  portOf,
  type RawClient,
  sseRequest,
  statusOf,
  wsRequest,
} from './clients.js';
import { SSE_PATH } from './streams.js';

export interface PerAddressSize {
  /** Addresses of the attacker. */
  addresses: number;
  /** Streams each attacker address tries to open, per kind. */
  attempts: number;
  perIpMax: number;
  /** Server-wide cap per kind; at most addresses * attempts so that the attack would fill it. */
  serverMax: number;
}

export async function streamsPerAddress(size: PerAddressSize): Promise<void> {
  const t = await startServedNode({
    'streams.sse_clients_max': size.serverMax,
    'streams.ws_clients_max': size.serverMax,
    'streams.sse_clients_per_ip_max': size.perIpMax,
    'streams.ws_clients_per_ip_max': size.perIpMax,
    'gateway.connections_per_ip_max': 4 * size.attempts,
    'gateway.connections_max': 8 * size.addresses * size.attempts,
  });
  const port = portOf(t.url);
  const all: RawClient[] = [];
  const flood = async (f: (address: string) => Promise<RawClient>) => {
    const out: RawClient[] = [];
    for (let a = 0; a < size.addresses; a++) {
      for (let i = 0; i < size.attempts; i++) out.push(await f(ip(40, a)));
    }
    all.push(...out);
    return out;
  };
  const count = (cs: RawClient[], s: number) => cs.filter((c) => statusOf(c.text()) === s).length;
  try {
    const sse = await flood((a) => sseRequest(port, SSE_PATH, a));
    const ws = await flood((a) => wsRequest(port, '/events', '{}', a));
    const newcomer = [
      await sseRequest(port, SSE_PATH, ip(41, 1)),
      await wsRequest(port, '/events', '{}', ip(41, 1)),
    ];
    all.push(...newcomer);
    const refused = [...sse, ...ws].filter((c) => statusOf(c.text()) === 429);
    const admittedMax = size.addresses * size.perIpMax;
    figure('streams per address', {
      attackers: `${size.addresses} addresses x ${size.attempts} attempts per kind`,
      SSE: `${count(sse, 200)} admitted (${size.perIpMax} per address, server cap ${size.serverMax}), ${count(sse, 429)} refused 429`,
      WebSocket: `${count(ws, 101)} admitted, ${count(ws, 429)} refused 429`,
      newcomer: newcomer.map((c) => statusOf(c.text())).join(' / '),
    });
    assert.equal(count(sse, 200), admittedMax);
    assert.equal(count(ws, 101), admittedMax);
    assert.equal(refused.length, 2 * (size.addresses * size.attempts - admittedMax));
    for (const c of refused) {
      const body = jsonBodyOf(c.text());
      assert.equal(body?.code, 'stream_limit_reached');
      assert.equal((body?.details as { scope?: string } | undefined)?.scope, 'client_address');
      assert.match(c.text(), /\r\nretry-after: \d+\r\n/i);
    }
    assert.deepEqual(
      newcomer.map((c) => statusOf(c.text())),
      [200, 101],
      'a newcomer from another address is admitted',
    );
  } finally {
    for (const c of all) c.socket.destroy();
    await t.stopAll();
  }
}
