// The gateway's event streams (src/gateway/README.md "Streams"), through real sockets: SSE (`eventsource`) and WebSocket (`ws`) clients
// receive the commit events of a transaction submitted over HTTP; a dropped SSE stream resumes with
// Last-Event-ID and loses nothing; filters; the block stream follows the tip; bad requests are refused.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeFrame, encodeFrame } from '../../src/codec/frame.js';
import { EventSubscriptionView } from '../../src/gateway/views/events.js';
import { BlockCodec } from '../../src/model/block.js';
import { EventEnvelopeCodec } from '../../src/model/events.js';
import { createSchemaRegistry } from '../../src/model/schema.js';
import { transactionHash } from '../../src/model/transaction.js';
import { ID_SPAN } from '../../src/pipeline/event-id.js';
import { toHex } from '../../src/util/hex.js';
import { run } from '../helpers/node.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';
import { buildTx, frameTx } from '../helpers/tx.js';
import {
  idsBetween,
  neverReadingSse,
  openSse,
  openWs,
  range,
  streamCloses,
  submitHttp,
  waitFor,
} from './stream-clients.js';

const LIMITS = { bytesMax: 1 << 24, itemsMax: 100_000, depthMax: 32 };
const registry = createSchemaRegistry([EventSubscriptionView]);
const log = (message: string) => ({ kind: 'Log' as const, level: { kind: 'Info' as const }, message });

describe('event streams', () => {
  let t: ServedTestNode;
  const lastId = () => t.node.pipeline.events.lastId();
  before(async () => {
    t = await startServedNode({ 'gateway.filter_depth_max': 4 });
  });
  after(async () => t.stopAll());

  it('SSE, WebSocket JSON and WebSocket codec clients receive the commit events of an HTTP submission', async () => {
    const sse = await openSse(t.url, '/v1/events/sse');
    const since = lastId();
    const text = await openWs(t.url, '/events', JSON.stringify({ since }));
    const binarySub = encodeFrame(registry, EventSubscriptionView, { since });
    const binary = await openWs(t.url, '/events', binarySub);
    try {
      const hash = await submitHttp(t, 'hello streams');
      const committed = (e: { kind: string; hash?: string; status?: { kind: string } }) =>
        e.kind === 'Transaction' && e.hash === hash && e.status?.kind === 'Committed';
      await waitFor('SSE commit', () => sse.messages.some((m) => committed(m.data)));
      const ssePick = sse.messages.find((m) => committed(m.data))!;
      assert.equal(ssePick.name, 'transaction');
      assert.ok(Number.isSafeInteger(ssePick.data.block_height));
      assert.ok(sse.messages.some((m) => m.name === 'data' && m.data.data.kind === 'Logged'));
      assert.ok(sse.messages.some((m) => m.name === 'block' && m.data.status.kind === 'Applied'));
      const sseIds = sse.messages.map((m) => m.id);
      assert.deepEqual(sseIds, idsBetween(t.node, since, sseIds.at(-1)!), 'every event, in id order');

      const asJson = () => text.text.map((s) => JSON.parse(s) as { id: number; event: { hash?: string } });
      await waitFor('WS JSON commit', () => asJson().some((m) => committed(m.event as never)));
      const decoded = () =>
        binary.binary.map((b) => {
          const r = decodeFrame(registry, EventEnvelopeCodec, b, LIMITS);
          assert.ok(r.ok, 'each binary frame is a framed EventEnvelope');
          return r.value;
        });
      await waitFor('WS codec commit', () =>
        decoded().some(
          (env) =>
            env.event.kind === 'Transaction' &&
            toHex(env.event.hash) === hash &&
            env.event.status.kind === 'Committed',
        ),
      );
      // Same ids and the same events in every form.
      const upTo = ssePick.id;
      assert.deepEqual(
        asJson().filter((m) => m.id <= upTo),
        sse.messages.filter((m) => m.id <= upTo).map((m) => ({ id: m.id, event: m.data })),
      );
      assert.deepEqual(
        decoded()
          .filter((env) => env.id <= upTo)
          .map((env) => env.id),
        idsBetween(t.node, since, upTo),
      );
      assert.equal(text.binary.length + binary.text.length, 0, 'each client gets only its own frame type');
    } finally {
      sse.close();
      text.ws.close();
      binary.ws.close();
    }
  });

  it('filters by tx_hash, on SSE (with replay from ?last_event_id=) and on WebSocket', async () => {
    const before = lastId();
    const tx = buildTx(t.admin, [log('filtered')], { chainId: t.chainId });
    const hash = toHex(transactionHash(tx));
    const filter = JSON.stringify({ eq: ['tx_hash', hash] });
    const ws = await openWs(t.url, '/events', JSON.stringify({ filter: JSON.parse(filter), since: before }));
    await run(t, t.admin, [log('noise')]); // another transaction, whose events must not pass
    const res = await fetch(`${t.url}/transaction`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-codec' },
      body: frameTx(tx),
    });
    assert.equal(res.status, 202);
    await run(t, t.admin, [log('more noise')]); // committed after the filtered one: it is committed too
    const sse = await openSse(
      t.url,
      `/v1/events/sse?last_event_id=${before}&filter=${encodeURIComponent(filter)}`,
    );
    try {
      // Queued, Committed and the Logged data event; then nothing else (the noise is committed too).
      await waitFor('filtered SSE', () => sse.messages.length >= 3);
      await waitFor('filtered WS', () => ws.text.length >= 3);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const sseKinds = sse.messages.map((m) => `${m.name}:${m.data.status?.kind ?? m.data.data.kind}`);
      assert.deepEqual(sseKinds, ['transaction:Queued', 'transaction:Committed', 'data:Logged']);
      assert.ok(sse.messages.every((m) => (m.data.hash ?? m.data.transaction_hash) === hash));
      const wsEvents = ws.text.map((s) => JSON.parse(s));
      assert.deepEqual(
        wsEvents.map((m) => m.id),
        sse.messages.map((m) => m.id),
      );
    } finally {
      sse.close();
      ws.ws.close();
    }
  });

  it('refuses invalid filters and resume ids with 400 before streaming', async () => {
    const get = async (query: string) => {
      const res = await fetch(`${t.url}/v1/events/sse?${query}`, {
        headers: { accept: 'text/event-stream' },
      });
      const body = (await res.json()) as { code: string; details: { path?: string; reason?: string } };
      return { status: res.status, type: res.headers.get('content-type'), body };
    };
    const deep = { not: { not: { not: { not: { eq: ['kind', 'block'] } } } } }; // depth 5 > 4
    const cases = [
      '{"eq":',
      '{"eq":["status","Committed"]}',
      '{"near":["tx_hash","ab"]}',
      JSON.stringify(deep),
    ];
    for (const filter of cases) {
      const r = await get(`filter=${encodeURIComponent(filter)}`);
      assert.equal(r.status, 400, filter);
      assert.equal(r.body.code, 'invalid_filter');
      assert.match(r.type ?? '', /application\/json/);
    }
    assert.equal(
      (await get(`filter=${encodeURIComponent(JSON.stringify(deep))}`)).body.details.reason,
      'nested deeper than 4',
    );
    const badId = await get('last_event_id=abc');
    assert.equal(badId.status, 400);
    assert.equal(badId.body.code, 'invalid_last_event_id');
  });

  it('a dropped SSE stream resumes with Last-Event-ID and loses nothing while commits continue', async () => {
    const first = lastId() + 1;
    const sse = await openSse(t.url, '/v1/events/sse');
    const hashes: string[] = [];
    try {
      for (let i = 0; i < 24; i++) {
        hashes.push((await run(t, t.admin, [log(`resume ${i}`)])).hash);
        if (i === 8) {
          await waitFor('some events before the drop', () => sse.messages.length > 0);
          sse.drop(); // the connection is gone; the next 15 transactions commit while it is
        }
      }
      const last = lastId();
      await waitFor('the reconnected stream to catch up', () => sse.messages.at(-1)?.id === last);
      assert.equal(sse.requests.length, 2, 'one reconnection');
      const resumedFrom = Number(sse.requests[1]!['Last-Event-ID']);
      assert.ok(resumedFrom >= first && resumedFrom < last, `Last-Event-ID ${resumedFrom}`);
      assert.deepEqual(
        sse.messages.map((m) => m.id),
        idsBetween(t.node, first - 1, last),
        'the union of both connections is contiguous, without duplicates',
      );
      const committed = new Set(
        sse.messages
          .filter((m) => m.data.status?.kind === 'Committed' && m.name === 'transaction')
          .map((m) => m.data.hash),
      );
      for (const h of hashes) assert.ok(committed.has(h), `commit of ${h} seen`);
    } finally {
      sse.close();
    }
  });

  it('WebSocket: `since` replays history; an id beyond the history closes 4410 gone', async () => {
    const since = lastId();
    await run(t, t.admin, [log('replayed')]);
    const last = lastId();
    const ws = await openWs(t.url, '/events', JSON.stringify({ since }));
    await waitFor('replay', () => ws.text.length >= idsBetween(t.node, since, last).length);
    assert.deepEqual(
      ws.text.map((s) => JSON.parse(s).id),
      idsBetween(t.node, since, last),
    );
    ws.ws.close();
    const future = await openWs(t.url, '/events', JSON.stringify({ since: last + ID_SPAN }));
    assert.deepEqual(await future.closed, { code: 4410, reason: 'gone' });
  });

  it('bad first messages and second messages close with 1008', { timeout: 10_000 }, async () => {
    const badEvents: (string | Uint8Array)[] = [
      'not json',
      '[]',
      '{"filter":{"bogus":1}}',
      '{"filter":{"eq":["status","x"]}}',
      '{"since":-1}',
      '{"extra":true}',
      JSON.stringify({ filter: { eq: ['é'.repeat(64), 1] } }), // the reason quotes it: cut to 123 bytes
      Buffer.from('TRNC garbage that is not a frame'),
    ];
    for (const first of badEvents) {
      const c = await openWs(t.url, '/events', first);
      const { code, reason } = await c.closed;
      assert.equal(code, 1008, String(first));
      assert.ok(reason.length > 0);
    }
    const badBlocks: (string | Uint8Array)[] = [
      '{"from":0}',
      '{"from":"1"}',
      '{}',
      Buffer.alloc(8),
      Buffer.alloc(3, 1),
    ];
    for (const first of badBlocks) {
      const c = await openWs(t.url, '/block/stream', first);
      const { code, reason } = await c.closed;
      assert.equal(code, 1008, String(first));
      assert.match(reason, /start|height|from|JSON/);
    }
    const twice = await openWs(t.url, '/events', '{}');
    twice.ws.send('{}');
    assert.deepEqual(await twice.closed, { code: 1008, reason: 'one subscription per connection' });
  });

  it('the block stream sends every block from the start height and follows the tip', async () => {
    const text = await openWs(t.url, '/block/stream', JSON.stringify({ from: 1 }));
    const start = Buffer.alloc(8);
    start.writeBigUInt64LE(1n);
    const binary = await openWs(t.url, '/block/stream', start);
    const height = () => t.node.ledger.height();
    try {
      await waitFor(
        'the chain so far',
        () => text.text.length === height() && binary.binary.length === height(),
      );
      const first = JSON.parse(text.text[0]!);
      assert.equal(first.header.height, 1, 'genesis first');
      const r = await run(t, t.admin, [log('new block')]);
      await waitFor(
        'the new block',
        () => text.text.length === r.height! && binary.binary.length === r.height!,
      );
      assert.deepEqual(
        text.text.map((s) => JSON.parse(s).header.height),
        range(1, r.height!),
      );
      const decoded = binary.binary.map((b) => {
        const d = decodeFrame(registry, BlockCodec, b, LIMITS);
        assert.ok(d.ok);
        return d.value;
      });
      assert.deepEqual(
        decoded.map((b) => b.header.height),
        range(1, r.height!),
      );
      assert.deepEqual(BlockCodec.toJson(decoded.at(-1)!), JSON.parse(text.text.at(-1)!));
      // A start above the tip waits for the chain to get there.
      const ahead = await openWs(t.url, '/block/stream', JSON.stringify({ from: height() + 1 }));
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(ahead.text.length, 0);
      const next = await run(t, t.admin, [log('awaited block')]);
      await waitFor('the awaited block', () => ahead.text.length === 1);
      assert.equal(JSON.parse(ahead.text[0]!).header.height, next.height);
      ahead.ws.close();
    } finally {
      text.ws.close();
      binary.ws.close();
    }
  });

  // That they are in the OpenAPI document is checked on the served document of test/gateway/profiles.test.ts
  // (built once there, rather than once more here).
  it('the WebSocket paths are GET routes answering 426 without an upgrade', async () => {
    for (const path of ['/events', '/block/stream']) {
      const res = await fetch(`${t.url}${path}`);
      assert.equal(res.status, 426);
      assert.equal(((await res.json()) as { code: string }).code, 'upgrade_required');
    }
  });
});

describe('slow consumers', () => {
  let t: ServedTestNode;
  const lastId = () => t.node.pipeline.events.lastId();
  const BUFFER_EVENTS = 64;
  before(async () => {
    t = await startServedNode({
      'streams.subscriber_buffer_events_max': BUFFER_EVENTS,
      'streams.subscriber_buffer_bytes_max': 256 * 1024,
    });
  });
  after(async () => t.stopAll());

  /** ~46 KB of events per transaction: three 15 KB metadata values. */
  const bulky = (i: number) =>
    [0, 1, 2].map((k) => ({
      kind: 'SetKeyValue' as const,
      target: { kind: 'Account' as const, id: t.admin.id },
      key: `bulk${k}`,
      value: `${i}:${'x'.repeat(15_000)}`,
    }));

  it('never-reading SSE and WebSocket clients are cut off at their caps; normal clients get everything in order', async () => {
    const since = lastId();
    const slowSse = await neverReadingSse(t.url, '/v1/events/sse');
    const slowWs = await openWs(t.url, '/events', JSON.stringify({ since }));
    slowWs.ws.pause(); // reads nothing from now on
    const fastSse = await openSse(t.url, '/v1/events/sse');
    const fastWs = await openWs(t.url, '/events', JSON.stringify({ since }));
    const fastWsIds = () => fastWs.text.map((m) => JSON.parse(m).id as number);
    try {
      const lagged = async () =>
        (await streamCloses(t, 'sse', 'lagged')) >= 1 && (await streamCloses(t, 'ws_events', 'lagged')) >= 1;
      let sent = 0;
      // Four transactions a round, committed together: the never-reading clients' kernel socket buffers
      // take a few MB before the node's own queues fill, about a hundred transactions.
      while (!(await lagged()) && sent < 600)
        await Promise.all(Array.from({ length: 4 }, () => run(t, t.admin, bulky(sent++))));
      assert.ok(await lagged(), `both slow clients cut off (after ${sent} transactions)`);
      const last = lastId();
      await waitFor(
        'fast clients',
        () => fastSse.messages.at(-1)?.id === last && fastWsIds().at(-1) === last,
        20_000,
      );
      assert.deepEqual(
        fastSse.messages.map((m) => m.id),
        idsBetween(t.node, since, last),
        'fast SSE: every event, in order',
      );
      assert.deepEqual(fastWsIds(), idsBetween(t.node, since, last), 'fast WebSocket: every event, in order');
      assert.equal(await streamCloses(t, 'sse', 'lagged'), 1, 'only the slow SSE client lagged');
      assert.equal(await streamCloses(t, 'ws_events', 'lagged'), 1, 'only the slow WebSocket client lagged');

      // The slow clients read what was sent before the cut: a prefix without gaps, then the notice.
      slowSse.socket.resume();
      await waitFor('lagged notice', () => slowSse.text().includes('event: lagged'));
      const notice = /event: lagged\r?\ndata: \{"last_sent_id":(\d+)\}/.exec(slowSse.text());
      assert.ok(notice, 'lagged notice with last_sent_id');
      const lastSent = Number(notice[1]);
      const slowIds = [...slowSse.text().matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
      assert.deepEqual(slowIds, idsBetween(t.node, since, lastSent));
      assert.ok(lastSent < last, 'cut off before the end');
      slowWs.ws.resume();
      assert.deepEqual(await slowWs.closed, { code: 1013, reason: 'lagged' });
      const slowWsIds = slowWs.text.map((m) => JSON.parse(m).id as number);
      assert.deepEqual(slowWsIds, idsBetween(t.node, since, last).slice(0, slowWsIds.length));
      assert.ok(slowWsIds.length < idsBetween(t.node, since, last).length, 'cut off before the end');
      // Resuming after the last id received yields the rest.
      const resumed = await openWs(t.url, '/events', JSON.stringify({ since: slowWsIds.at(-1) }));
      await waitFor(
        'the rest',
        () => resumed.text.length === idsBetween(t.node, slowWsIds.at(-1)!, last).length,
      );
      assert.equal(JSON.parse(resumed.text.at(-1)!).id, last);
      resumed.ws.close();
    } finally {
      slowSse.socket.destroy();
      slowWs.ws.terminate();
      fastSse.close();
      fastWs.ws.close();
    }
  });
});
