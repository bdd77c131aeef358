// Abuse scenarios on event streams (docs/design/testing.md):
// clients beyond the stream caps are refused
// (429 / 503) and admitted again once a slot frees; a flood of subscriptions on one WebSocket is closed
// 1008. Also the regression of a burst of events cutting off fast SSE readers. The never-reading crowd
// is in crowd.ts.

import assert from 'node:assert/strict';
import { startServedNode } from '../helpers/served.js';
import { buildTx, frameTx } from '../helpers/tx.js';
import {
  type EventReader,
  figure,
  gapOrDisorder,
  ip,
  jsonBodyOf,
  maskedTextFrame,
  portOf,
  publishedIds,
  type RawClient,
  readingSse,
  readingWs,
  sseRequest,
  statusOf,
  waitFor,
  wsRequest,
} from './clients.js';
import { watchCommits } from './commits.js';

export const SSE_PATH = '/v1/events/sse';
export const ok = () => true;
export const ko = () => false;

/** Why each reader's ids are not exactly `expected` (or why it ended), undefined when they are. */
export function readerProblems(
  readers: readonly EventReader[],
  expected: readonly number[],
): (string | undefined)[] {
  return readers.map(
    (r) => gapOrDisorder(r.ids, expected) ?? (r.endings.length > 0 ? r.endings.join() : undefined),
  );
}

export interface FloodSize {
  sseMax: number;
  wsMax: number;
  extra: number;
}

const statuses = (cs: RawClient[]) => cs.map((c) => statusOf(c.text()));
const count = (cs: RawClient[], status: number) => statuses(cs).filter((s) => s === status).length;

/**
 * Sends 50 more subscription messages on an open /events socket; the close code it receives. It waits for
 * the server's close frame (or the socket's end), then ends the socket as a client does on a close: this raw
 * client never answers the close frame, so the server would only drop it at its close grace, seconds
 * later (src/gateway/ws.test.ts covers the grace).
 */
async function subscriptionBurst(c: RawClient): Promise<number | undefined> {
  for (let i = 0; i < 50; i++) c.socket.write(maskedTextFrame('{"since":0}'));
  // The server's close frame (RFC 6455 §5.5.1): 0x88, a short length, then the 2-byte code.
  const closeFrame = () =>
    /\x88[\x02-\x7d]([\x00-\xff]{2})/.exec(c.text().slice(c.text().indexOf('\r\n\r\n')));
  await waitFor('the close frame', () => closeFrame() !== null || c.isClosed(), 120_000);
  const m = closeFrame();
  c.socket.destroy();
  return m === null ? undefined : (m[1]!.charCodeAt(0) << 8) | m[1]!.charCodeAt(1);
}

/** Clients beyond the SSE and WebSocket caps are refused; a freed slot admits the next one. */
export async function subscriptionFloods(size: FloodSize): Promise<void> {
  const t = await startServedNode({
    'streams.sse_clients_max': size.sseMax,
    'streams.ws_clients_max': size.wsMax,
    'gateway.connections_max': 4 * (size.sseMax + size.wsMax + size.extra),
  });
  const port = portOf(t.url);
  const all: RawClient[] = [];
  const open = async (n: number, f: (i: number) => Promise<RawClient>) => {
    const out = await Promise.all(Array.from({ length: n }, (_, i) => f(i)));
    all.push(...out);
    return out;
  };
  const sse = (block: number) => (i: number) => sseRequest(port, SSE_PATH, ip(block, i));
  const ws = (block: number) => (i: number) => wsRequest(port, '/events', '{}', ip(block, i));
  try {
    const admittedSse = await open(size.sseMax, sse(30));
    const refusedSse = await open(size.extra, sse(31));
    const admittedWs = await open(size.wsMax, ws(32));
    const refusedWs = await open(size.extra, ws(33));
    const code = await subscriptionBurst(admittedWs[0]!);
    admittedSse[0]!.socket.destroy();
    const streams = t.served.app.gateway.streams;
    await waitFor(
      'freed slots',
      () => streams.count('sse') < size.sseMax && streams.count('ws') < size.wsMax,
    );
    const again = [await open(1, sse(34)), await open(1, ws(35))].flat();
    const codeOf = (c: RawClient) => jsonBodyOf(c.text())?.code;
    figure('subscription floods', {
      SSE: `${count(admittedSse, 200)} admitted (cap ${size.sseMax}), ${count(refusedSse, 429)}/${size.extra} refused 429 ${codeOf(refusedSse[0]!)}`,
      WebSocket: `${count(admittedWs, 101)} admitted (cap ${size.wsMax}), ${count(refusedWs, 503)}/${size.extra} refused 503 ${codeOf(refusedWs[0]!)}`,
      'subscription burst on one socket': `closed ${code}`,
      'after a slot freed': statuses(again).join(' / '),
    });
    assert.equal(count(admittedSse, 200), size.sseMax);
    assert.equal(count(refusedSse, 429), size.extra);
    assert.ok(refusedSse.every((c) => codeOf(c) === 'stream_limit_reached'));
    assert.ok(
      refusedSse.every((c) => /\r\nretry-after: \d+\r\n/i.test(c.text())),
      'every 429 carries Retry-After',
    );
    assert.equal(count(admittedWs, 101), size.wsMax);
    assert.equal(count(refusedWs, 503), size.extra);
    assert.ok(refusedWs.every((c) => codeOf(c) === 'too_many_connections'));
    assert.equal(code, 1008);
    assert.deepEqual(statuses(again), [200, 101]);
  } finally {
    for (const c of all) c.socket.destroy();
    await t.stopAll();
  }
}

/**
 * Regression (found by this suite; fixed in src/gateway/sse-session.ts): events published in one
 * synchronous burst (admissions that never yield to I/O, a committed block's events) overflowed the
 * per-subscriber queue before any socket could drain, so under the default limits (1,000 events) every
 * SSE reader, however fast, was cut off as `lagged` by 1,200 transactions. Ordinary SSE and WebSocket
 * readers must receive every event of that many transactions, submitted at once and committed in full
 * blocks, in order.
 */
export async function fullBlockBurst(size: { transactions: number }): Promise<void> {
  // Stream limits at their defaults; the queue only has to hold the burst of one account.
  const t = await startServedNode({
    'queue.per_account_max': Math.max(4_096, size.transactions),
    'queue.per_key_max': Math.max(4_096, size.transactions),
  });
  const readers: EventReader[] = [];
  try {
    const since = t.node.pipeline.events.lastId();
    const published = publishedIds(t.node);
    readers.push(
      await readingSse(portOf(t.url), `${SSE_PATH}?last_event_id=${since}`),
      await readingWs(t.url, JSON.stringify({ since })),
    );
    const watch = watchCommits(t.node);
    t.node.engine.stop(); // hold block production so that the blocks come out full
    for (let i = 0; i < size.transactions; i++) {
      // Admission resolves without a turn of the event loop: let the sockets in now and then, or on a
      // loaded machine the readers' subscriptions wait out the first-message timeout (close 1008).
      if (i % 50 === 0) await new Promise((r) => setImmediate(r));
      const tx = buildTx(t.admin, [{ kind: 'Log', level: { kind: 'Info' }, message: `burst ${i}` }], {
        chainId: t.chainId,
        nonce: i,
      });
      const r = await t.node.pipeline.submit(frameTx(tx));
      assert.ok(r.ok, `admitted: ${JSON.stringify(r.ok ? '' : r.kind)}`);
      watch.expect([r.hashHex]);
    }
    const height = t.node.ledger.height();
    t.node.engine.start();
    assert.ok(await watch.settled(30_000), `${watch.pending()} transactions never committed`);
    watch.stop();
    const last = t.node.pipeline.events.lastId();
    const caughtUp = await waitFor('readers', () => readers.every((r) => r.ids.at(-1) === last), 10_000).then(
      ok,
      ko,
    );
    const expected = published.between(since, last);
    published.stop();
    const problems = readerProblems(readers, expected);
    figure('full-block burst', {
      transactions: size.transactions,
      blocks: t.node.ledger.height() - height,
      events: expected.length,
      'SSE reader received': readers[0]!.ids.length,
      'WebSocket reader received': readers[1]!.ids.length,
      lost: problems.filter((p) => p !== undefined).length,
    });
    assert.ok(
      caughtUp,
      `readers stopped at ${readers.map((r) => `${r.ids.at(-1)} ${r.endings.join()}`).join(' / ')} of ${last}`,
    );
    assert.deepEqual(problems, [undefined, undefined]);
  } finally {
    for (const r of readers) r.close();
    await t.stopAll();
  }
}
