// A request refused before its body is read keeps its connection while the rest of a body of declared
// length arrives (refused-body.ts): the client reads 413 `body_too_large` instead of a reset, and its next
// request on the same connection is answered. A body declared longer than the drain limit still closes the
// connection. Real sockets: what is tested is the connection.

import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Type } from 'typebox';
import type { GatewayApp } from './context.js';
import { disabledOperatorAuth } from './operator-auth.js';
import { REFUSED_BODY_DRAIN_BYTES_MAX } from './refused-body.js';
import { registerRoutes } from './route-table.js';
import { createGatewayServer } from './server.js';

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Reads HTTP answers (with Content-Length bodies) from a socket, one at a time, and whether it ended. */
function reader(socket: Socket) {
  let buffered = Buffer.alloc(0);
  let ended = false;
  let wake: (() => void) | undefined;
  const poke = () => {
    wake?.();
    wake = undefined;
  };
  socket.on('data', (d: Buffer) => {
    buffered = Buffer.concat([buffered, d]);
    poke();
  });
  socket.on('close', () => {
    ended = true;
    poke();
  });
  socket.on('error', () => {});
  return {
    get ended() {
      return ended;
    },
    async next(): Promise<Answer | undefined> {
      for (;;) {
        const head = buffered.indexOf('\r\n\r\n');
        if (head >= 0) {
          const lines = buffered.subarray(0, head).toString('latin1').split('\r\n');
          const headers: Record<string, string> = {};
          for (const l of lines.slice(1)) {
            const i = l.indexOf(':');
            headers[l.slice(0, i).toLowerCase()] = l.slice(i + 1).trim();
          }
          const length = Number(headers['content-length'] ?? 0);
          if (buffered.length >= head + 4 + length) {
            const body = buffered.subarray(head + 4, head + 4 + length).toString('utf8');
            buffered = buffered.subarray(head + 4 + length);
            return { status: Number(lines[0]!.split(' ')[1]), headers, body };
          }
        }
        if (ended) return undefined;
        await new Promise<void>((r) => {
          wake = r;
        });
      }
    },
    async closed(): Promise<void> {
      while (!ended)
        await new Promise<void>((r) => {
          wake = r;
        });
    },
  };
}

function write(socket: Socket, data: string | Buffer): Promise<void> {
  return new Promise((resolve, reject) => socket.write(data, (e) => (e ? reject(e) : resolve())));
}

const head = (length: number) =>
  `POST /v1/small HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${length}\r\n\r\n`;
const GET = 'GET /v1/ping HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n';

describe('a refused body', () => {
  let app: GatewayApp;
  let port: number;
  const sockets: Socket[] = [];
  before(async () => {
    app = await createGatewayServer({ logLevel: 'silent' });
    registerRoutes(
      app,
      [
        {
          method: 'POST',
          url: '/v1/small',
          operationId: 'postSmall',
          summary: 'A route with a 100-byte body limit',
          tags: ['test'],
          visibility: 'public',
          bodyBytesMax: 100,
          schema: { body: Type.Object({ n: Type.Integer() }) },
          handler: async () => ({ ok: true }),
        },
        {
          method: 'GET',
          url: '/v1/ping',
          operationId: 'getPing',
          summary: 'Answers',
          tags: ['test'],
          visibility: 'public',
          schema: {},
          handler: async () => ({ pong: true }),
        },
      ],
      { profile: 'full', operatorAuth: disabledOperatorAuth() },
    );
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as { port: number }).port;
  });
  after(async () => {
    for (const s of sockets) s.destroy();
    await app.close();
  });

  async function open(): Promise<Socket> {
    const socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    await new Promise((r) => socket.once('connect', r));
    return socket;
  }

  it('is answered 413 while it arrives; the rest is read and the connection serves the next request', async () => {
    const socket = await open();
    const answers = reader(socket);
    const length = 900 * 1024;
    await write(socket, head(length) + 'x'.repeat(1024));
    const refused = await answers.next();
    assert.equal(refused?.status, 413);
    assert.equal(JSON.parse(refused.body).code, 'body_too_large');
    assert.notEqual(refused.headers.connection, 'close');
    // The rest of the body, in pieces, then another request on the same connection.
    for (let sent = 1024; sent < length; sent += 64 * 1024)
      await write(socket, Buffer.alloc(Math.min(64 * 1024, length - sent), 120));
    await write(socket, GET);
    const next = await answers.next();
    assert.equal(next?.status, 200);
    assert.deepEqual(JSON.parse(next.body), { pong: true });
  });

  it('sent whole at once, its answer arrives every time (no reset)', async () => {
    for (let i = 0; i < 10; i++) {
      const socket = await open();
      const answers = reader(socket);
      const length = 900 * 1024;
      socket.write(Buffer.concat([Buffer.from(head(length)), Buffer.alloc(length, 120), Buffer.from(GET)]));
      assert.equal((await answers.next())?.status, 413);
      assert.equal((await answers.next())?.status, 200);
      socket.destroy();
    }
  });

  it('declared longer than the drain limit, closes the connection after the answer', async () => {
    const socket = await open();
    const answers = reader(socket);
    await write(socket, head(REFUSED_BODY_DRAIN_BYTES_MAX + 1) + 'x'.repeat(1024));
    const refused = await answers.next();
    assert.equal(refused?.status, 413);
    assert.equal(refused.headers.connection, 'close');
    await answers.closed();
  });
});
