// SseSession on a plain node:http server: a stream requested behind another request on a pipelined
// HTTP/1.1 connection (its response has no socket yet) delivers every event once the previous response
// finishes, and a session leaves no 'drain' listener behind on the socket or the response.

import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { EventBatch } from './event-batch.js';
import type { StreamEvent } from './sse-frame.js';
import { type EventFeed, type SseLimits, SseSession } from './sse-session.js';

class Feed implements EventFeed {
  private subs = new Set<(b: EventBatch) => void>();
  private last = 0;
  publish(): void {
    const e: StreamEvent = { id: ++this.last, name: 'tx', data: { n: this.last } };
    for (const fn of this.subs) fn(new EventBatch([e]));
  }
  since(): StreamEvent[] {
    return [];
  }
  subscribe(fn: (b: EventBatch) => void): () => void {
    this.subs.add(fn);
    return () => this.subs.delete(fn);
  }
  lastId(): number {
    return this.last;
  }
}

const LIMITS: SseLimits = {
  queueEventsMax: 1_000,
  queueBytesMax: 1 << 20,
  heartbeatMs: 60_000,
  retryMs: 1_000,
  closeGraceMs: 1_000,
};

interface Started {
  session: SseSession;
  res: ServerResponse;
  /** `res.socket` when the session started. */
  socketAtStart: Socket | null;
}

/** A server answering /slow after `slowMs` and /events with an SSE session on `feed`. */
async function serve(
  feed: Feed,
  slowMs: number,
): Promise<{ server: Server; port: number; started: Started[] }> {
  const started: Started[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.url === '/slow') {
      setTimeout(() => res.end('slow'), slowMs);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('retry: 1000\n\n');
    const session = new SseSession(res, LIMITS, { release: () => {} });
    started.push({ session, res, socketAtStart: res.socket });
    session.start(feed, undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, started };
}

async function waitUntil(cond: () => boolean, what: string, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

const ids = (text: string) => [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));

describe('SseSession', { timeout: 30_000 }, () => {
  const servers: Server[] = [];
  after(() => {
    for (const s of servers) s.close();
  });
  /** A served feed (the slow route answering after `slowMs`) and a raw socket collecting what it reads. */
  const rawClient = async (slowMs: number) => {
    const feed = new Feed();
    const { server, port, started } = await serve(feed, slowMs);
    servers.push(server);
    const client = connect(port, '127.0.0.1');
    let read = '';
    client.on('data', (d) => {
      read += d.toString('latin1');
    });
    return { feed, started, client, text: () => read };
  };

  it('delivers every event of a stream requested behind another one on a pipelined connection', async () => {
    const { feed, started, client, text } = await rawClient(300);
    try {
      client.write('GET /slow HTTP/1.1\r\nHost: a\r\n\r\nGET /events HTTP/1.1\r\nHost: a\r\n\r\n');
      await waitUntil(() => started.length === 1, 'the stream to start');
      // The stream's response waits for the slow one: it has no socket of its own yet.
      assert.equal(started[0]!.socketAtStart, null);
      for (let i = 0; i < 3; i++) feed.publish();
      await waitUntil(() => text().includes('slow'), 'the slow response');
      for (let i = 0; i < 3; i++) feed.publish();
      await waitUntil(() => ids(text()).length === 6, 'six events');
      assert.deepEqual(ids(text()), [1, 2, 3, 4, 5, 6]);
      assert.ok(text().indexOf('slow') < text().indexOf('retry: 1000'), 'responses in request order');
    } finally {
      started[0]?.session.finish('shutdown');
      client.destroy();
    }
  });

  it("removes its 'drain' listeners from the socket and the response when it ends", async () => {
    const { feed, started, client, text } = await rawClient(0);
    try {
      client.write('GET /events HTTP/1.1\r\nHost: a\r\n\r\n');
      await waitUntil(() => started.length === 1, 'the stream to start');
      const { session, res } = started[0]!;
      const socket = res.socket!;
      feed.publish();
      await waitUntil(() => ids(text()).length === 1, 'the first event');
      const onSocket = socket.listenerCount('drain');
      const onRes = res.listenerCount('drain');
      session.finish('shutdown');
      assert.equal(socket.listenerCount('drain'), onSocket - 1);
      assert.equal(res.listenerCount('drain'), onRes - 1);
    } finally {
      client.destroy();
    }
  });
});
