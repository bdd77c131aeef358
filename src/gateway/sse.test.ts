import assert from 'node:assert/strict';
import { type IncomingMessage, request, type ServerResponse } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { EventSource } from 'eventsource';
import { timingBound } from '../../test/helpers/timing-bound.js';
import type { GatewayApp } from './context.js';
import { EventBatch } from './event-batch.js';
import type { GatewayLimits } from './limits.js';
import { disabledOperatorAuth } from './operator-auth.js';
import { registerRoutes } from './route-table.js';
import { createGatewayServer } from './server.js';
import { type EventFeed, type SseCloseReason, type StreamEvent, serveSse } from './sse.js';
import type { FeedFilter } from './sse-session.js';

/** An in-memory feed with bounded history, as the pipeline's event bus will offer. */
class FakeFeed implements EventFeed {
  private events: StreamEvent[] = [];
  private subs = new Set<{ fn: (b: EventBatch) => void; filter: FeedFilter | undefined }>();
  private last = 0;
  constructor(private readonly historyMax: number) {}
  publish(name: string, data: unknown): number {
    const e = { id: ++this.last, name, data };
    this.events.push(e);
    if (this.events.length > this.historyMax) this.events.shift();
    for (const { fn, filter } of this.subs) if (filter?.keep(e) ?? true) fn(new EventBatch([e]));
    return e.id;
  }
  since(lastId: number): StreamEvent[] | 'gone' {
    const oldest = this.events[0]?.id ?? this.last + 1;
    if (lastId < oldest - 1) return 'gone';
    return this.events.filter((e) => e.id > lastId);
  }
  subscribe(fn: (b: EventBatch) => void, filter?: FeedFilter): () => void {
    const sub = { fn, filter };
    this.subs.add(sub);
    return () => this.subs.delete(sub);
  }
  lastId(): number {
    return this.last;
  }
}

interface Harness {
  app: GatewayApp;
  port: number;
  feed: FakeFeed;
  closes: SseCloseReason[];
  live: ServerResponse[];
  lastEventIds: (string | undefined)[];
}

async function harness(limits: Partial<GatewayLimits>, historyMax = 100_000): Promise<Harness> {
  const app = await createGatewayServer({
    logLevel: 'silent',
    limits: { ratePerSecond: 0, ...limits },
    corsOrigins: ['https://app.example'],
  });
  const h: Harness = { app, port: 0, feed: new FakeFeed(historyMax), closes: [], live: [], lastEventIds: [] };
  registerRoutes(
    app,
    [
      {
        method: 'GET',
        url: '/v1/events/sse',
        operationId: 'streamEvents',
        summary: 'events',
        tags: ['streams'],
        visibility: 'public',
        formats: { default: 'sse', offers: ['sse'] },
        schema: {},
        handler: (req, reply) => {
          h.lastEventIds.push(req.headers['last-event-id'] as string | undefined);
          const even = new URLSearchParams(req.url.split('?')[1] ?? '').has('even');
          serveSse(req, reply, h.feed, {
            ...(even ? { filter: (e) => e.id % 2 === 0 } : {}),
            onClose: (reason) => h.closes.push(reason),
          });
          h.live.push(reply.raw);
        },
      },
    ],
    { profile: 'full', operatorAuth: disabledOperatorAuth() },
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  h.port = (app.server.address() as AddressInfo).port;
  return h;
}

/** Reads an SSE response as text until `done(text)` or the end of the stream. */
function readStream(
  port: number,
  path: string,
  headers: Record<string, string>,
  done: (text: string) => boolean,
): Promise<{ res: IncomingMessage; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      let text = '';
      const finish = () => {
        req.destroy();
        resolve({ res, text });
      };
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        if (done(text)) finish();
      });
      res.on('end', finish);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Polls `cond` until it holds; fails (instead of hanging) after `timeoutMs`. */
async function waitUntil(
  cond: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

const ids = (text: string) => [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('SSE framing and resumption', { timeout: 60_000 }, () => {
  let h: Harness;
  before(async () => {
    h = await harness({ sseHeartbeatMs: 50, sseRetryMs: 50 });
  });
  after(() => h.app.close());

  it('sends id, event name and one compact JSON line per event, with the stream headers', async () => {
    const reading = readStream(
      h.port,
      '/v1/events/sse',
      { origin: 'https://app.example' },
      (t) => ids(t).length >= 2 && t.includes(': heartbeat'),
    );
    await waitUntil(() => h.live.length > 0, 'the stream to start');
    const first = h.feed.publish('tx', { hash: 'ab', note: 'line\nbreak' });
    h.feed.publish('block', { height: 1 });
    const { res, text } = await reading;
    assert.equal(res.headers['content-type'], 'text/event-stream; charset=utf-8');
    assert.equal(res.headers['cache-control'], 'no-cache');
    assert.equal(res.headers['x-accel-buffering'], 'no');
    assert.equal(res.headers['x-ledger-api-version'], '1');
    assert.equal(res.headers['access-control-allow-origin'], 'https://app.example');
    assert.ok(text.startsWith('retry: 50\n\n'));
    assert.ok(text.includes(`id: ${first}\nevent: tx\ndata: {"hash":"ab","note":"line\\nbreak"}\n\n`));
    assert.ok(text.includes(`id: ${first + 1}\nevent: block\ndata: {"height":1}\n\n`));
  });

  it('replays from ?last_event_id= and applies the filter; refuses a malformed id', async () => {
    const start = h.feed.lastId();
    for (let i = 0; i < 6; i++) h.feed.publish('tx', { i });
    const { text } = await readStream(
      h.port,
      `/v1/events/sse?even&last_event_id=${start}`,
      {},
      (t) => ids(t).length >= 3,
    );
    assert.deepEqual(
      ids(text),
      range(start + 1, start + 6).filter((i) => i % 2 === 0),
    );
    const bad = await fetch(`http://127.0.0.1:${h.port}/v1/events/sse`, {
      headers: { 'last-event-id': '-1' },
    });
    assert.equal(bad.status, 400);
    assert.equal(((await bad.json()) as { code: string }).code, 'invalid_last_event_id');
  });

  it('EventSource resumes with Last-Event-ID after a dropped connection and loses nothing', async () => {
    const base = h.feed.lastId();
    const seen: number[] = [];
    const es = new EventSource(`http://127.0.0.1:${h.port}/v1/events/sse`);
    es.addEventListener('tx', (e) => seen.push(Number(e.lastEventId)));
    try {
      await new Promise((resolve) => es.addEventListener('open', resolve, { once: true }));
      const waitFor = (n: number) => waitUntil(() => seen.length >= n, `${n} events`);
      for (let i = 0; i < 5; i++) h.feed.publish('tx', { i });
      await waitFor(5);
      h.live.at(-1)!.destroy(); // the connection drops
      for (let i = 5; i < 10; i++) h.feed.publish('tx', { i }); // published while disconnected
      await waitFor(10);
      for (let i = 10; i < 15; i++) h.feed.publish('tx', { i });
      await waitFor(15);
      assert.deepEqual(seen, range(base + 1, base + 15));
      assert.equal(h.lastEventIds.at(-1), String(base + 5));
    } finally {
      es.close();
    }
  });
});

describe('SSE limits', { timeout: 60_000 }, () => {
  it('a history gap answers `event: gone` and closes', async () => {
    const h = await harness({}, 5);
    try {
      for (let i = 0; i < 20; i++) h.feed.publish('tx', { i });
      const { text } = await readStream(h.port, '/v1/events/sse', { 'last-event-id': '3' }, () => false);
      assert.ok(text.endsWith('event: gone\ndata: {"last_event_id":3}\n\n'));
      assert.deepEqual(ids(text), []);
      assert.deepEqual(h.closes, ['gone']);
    } finally {
      await h.app.close();
    }
  });

  it('closing the server ends open streams at once', async () => {
    const h = await harness({});
    const reading = readStream(h.port, '/v1/events/sse', {}, () => false);
    await waitUntil(() => h.live.length > 0, 'the stream to start');
    const started = Date.now();
    await h.app.close();
    await reading;
    timingBound({
      what: 'open stream ended after the server closed',
      value: Date.now() - started,
      max: 1_000,
    });
    assert.deepEqual(h.closes, ['shutdown']);
  });

  it('429 stream_limit_reached over the SSE client cap', async () => {
    const h = await harness({ sseClientsMax: 1 });
    try {
      const first = readStream(h.port, '/v1/events/sse', {}, (t) => ids(t).length > 0);
      await waitUntil(() => h.live.length > 0, 'the first stream to start');
      const second = await fetch(`http://127.0.0.1:${h.port}/v1/events/sse`);
      assert.equal(second.status, 429);
      assert.equal(((await second.json()) as { code: string }).code, 'stream_limit_reached');
      assert.equal(second.headers.get('retry-after'), '1');
      h.feed.publish('tx', {});
      await first;
    } finally {
      await h.app.close();
    }
  });

  it('a never-reading client gets `lagged` and is closed; a fast client gets every event in order', async () => {
    const h = await harness({ sseQueueEventsMax: 50, sseQueueBytesMax: 1 << 20, streamCloseGraceMs: 3_000 });
    const slow = connect(h.port, '127.0.0.1');
    slow.on('error', () => {});
    let slowText = '';
    slow.on('data', (d) => {
      slowText += d.toString('latin1');
    });
    slow.write('GET /v1/events/sse HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await waitUntil(() => h.live.length > 0, 'the slow stream to start');
    slow.pause(); // from now on the slow client reads nothing
    const fastIds: number[] = [];
    const es = new EventSource(`http://127.0.0.1:${h.port}/v1/events/sse`);
    es.addEventListener('tx', (e) => fastIds.push(Number(e.lastEventId)));
    try {
      await new Promise((resolve) => es.addEventListener('open', resolve, { once: true }));
      const payload = 'x'.repeat(8_000);
      // Small batches with pauses: the fast client (in this same process) reads between them, the slow
      // one never does.
      for (let batch = 0; batch < 2_000 && !h.closes.includes('lagged'); batch++) {
        for (let i = 0; i < 5; i++) h.feed.publish('tx', { payload });
        await sleep(1);
      }
      for (let i = 0; i < 20; i++) h.feed.publish('tx', { payload });
      assert.ok(h.closes.includes('lagged'), 'the slow client was cut off');
      const total = h.feed.lastId();
      await waitUntil(() => fastIds.length >= total, 'the fast client to catch up');
      assert.deepEqual(fastIds, range(1, total), 'fast client: every event, in order');

      slow.resume(); // the slow client finally reads what was sent before the notice
      await waitUntil(() => slowText.includes('event: lagged'), 'the lagged notice');
      const received = ids(slowText);
      const notice = /event: lagged\ndata: \{"last_sent_id":(\d+)\}/.exec(slowText);
      assert.ok(notice, 'lagged notice delivered');
      assert.deepEqual(received, range(1, Number(notice[1])), 'everything up to last_sent_id, nothing lost');
      assert.ok(Number(notice[1]) < total);

      // Resuming from last_sent_id yields the rest.
      const rest = await readStream(h.port, '/v1/events/sse', { 'last-event-id': notice[1]! }, (t) =>
        ids(t).includes(total),
      );
      assert.deepEqual(ids(rest.text), range(Number(notice[1]) + 1, total));
    } finally {
      es.close();
      slow.destroy();
      await h.app.close();
    }
  });
});
