import assert from 'node:assert/strict';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { after, describe, it } from 'node:test';
import { startRelay } from './relay.js';
import { timingBound } from './timing-bound.js';

// An echo server as the relay's target.
async function echoServer(): Promise<{ port: number; close: () => Promise<void> }> {
  const socks = new Set<Socket>();
  const s: Server = createServer((c) => {
    socks.add(c);
    c.on('error', () => {});
    c.on('close', () => socks.delete(c));
    c.pipe(c);
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return {
    port: (s.address() as { port: number }).port,
    close: async () => {
      for (const c of socks) c.destroy();
      await new Promise<void>((r) => s.close(() => r()));
    },
  };
}

interface Client {
  sock: Socket;
  received: () => string;
  closed: Promise<void>;
}

async function client(port: number): Promise<Client> {
  const sock = connect(port, '127.0.0.1');
  sock.on('error', () => {});
  let got = '';
  sock.on('data', (d: Buffer) => {
    got += d.toString('utf8');
  });
  const closed = new Promise<void>((r) => sock.on('close', () => r()));
  await new Promise<void>((r, j) => {
    sock.once('connect', r);
    sock.once('error', j);
  });
  return { sock, received: () => got, closed };
}

async function until(cond: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('test helper: relay', () => {
  const cleanup: (() => Promise<void>)[] = [];
  after(async () => {
    for (const c of cleanup) await c();
  });

  it('relays both ways and records the bytes that crossed it', async () => {
    const echo = await echoServer();
    const relay = await startRelay(echo.port, '127.0.0.1', { recordBytesMax: 1024 });
    cleanup.push(relay.close, echo.close);
    const c = await client(relay.port);
    c.sock.write('hello relay');
    await until(() => c.received() === 'hello relay');
    assert.equal(relay.live(), 1);
    // Out and back: the relay saw the text twice.
    assert.equal(relay.recorded().toString('utf8'), 'hello relayhello relay');
    c.sock.destroy();
  });

  it('cut drops live connections and refuses new ones; heal lets them through again', async () => {
    const echo = await echoServer();
    const relay = await startRelay(echo.port);
    cleanup.push(relay.close, echo.close);
    const c = await client(relay.port);
    c.sock.write('a');
    await until(() => c.received() === 'a');
    relay.cut();
    await c.closed;
    assert.equal(relay.live(), 0);
    const refused = await client(relay.port);
    await refused.closed;
    refused.sock.write('never');
    assert.equal(refused.received(), '');
    relay.heal();
    const again = await client(relay.port);
    again.sock.write('b');
    await until(() => again.received() === 'b');
    assert.equal(relay.accepted(), 3);
    again.sock.destroy();
  });

  it('delay holds every chunk, in order, and heal removes it', async () => {
    const echo = await echoServer();
    const relay = await startRelay(echo.port);
    cleanup.push(relay.close, echo.close);
    const c = await client(relay.port);
    relay.delay(150);
    const t0 = Date.now();
    c.sock.write('1');
    setTimeout(() => c.sock.write('2'), 20);
    await until(() => c.received() === '12');
    // Each direction adds 150 ms.
    assert.ok(Date.now() - t0 >= 280, `round trip took ${Date.now() - t0} ms`);
    relay.heal();
    const t1 = Date.now();
    c.sock.write('3');
    await until(() => c.received() === '123');
    timingBound({ what: 'healed round trip through the relay', value: Date.now() - t1, max: 250 });
    c.sock.destroy();
  });
});
