// Abuse scenario: a crowd of never-reading stream clients (docs/design/testing.md).
// The crowd connects from many loopback
// addresses; bulky transactions are committed until every crowd member has been cut off (SSE: lagged;
// WebSocket: lagged or closed for unanswered pings) and its socket dropped; ordinary readers must have
// every event in order. Memory is reported (node and clients share this process).

import assert from 'node:assert/strict';
import { submitAndWait } from '../helpers/node.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';
import { buildTx } from '../helpers/tx.js';
import {
  type EventReader,
  figure,
  ip,
  memoryAfterGc,
  mib,
  neverReadingSse,
  neverReadingWs,
  portOf,
  publishedIds,
  type RawClient,
  readingSse,
  readingWs,
  rssPeak,
  waitFor,
} from './clients.js';
import { ko, ok, readerProblems, SSE_PATH } from './streams.js';

async function openConnections(t: ServedTestNode): Promise<number> {
  const v = (await t.served.app.gateway.metrics.activeConnections.get()).values;
  return v.find((x) => x.labels.scheme === 'http')?.value ?? 0;
}

async function streamCloses(t: ServedTestNode, stream: string, reason: string): Promise<number> {
  const m = t.served.app.gateway.metrics.registry.getSingleMetric('gateway_stream_closes_total');
  const v = m === undefined ? [] : (await m.get()).values;
  return v.find((x) => x.labels.stream === stream && x.labels.reason === reason)?.value ?? 0;
}

export interface SlowCrowdSize {
  sse: number;
  ws: number;
  readers: number;
  /** Upper bound on transactions sent while waiting for every slow client to be cut off. */
  txMax: number;
}

/** ~30 KB of events per transaction: two 15 KB metadata values (each in its data event). */
function bulkyTx(t: ServedTestNode, i: number) {
  const instructions = [0, 1].map((k) => ({
    kind: 'SetKeyValue' as const,
    target: { kind: 'Account' as const, id: t.admin.id },
    key: `bulk${k}`,
    value: `${i}:${'x'.repeat(15_000)}`,
  }));
  return buildTx(t.admin, instructions, { chainId: t.chainId, nonce: i });
}

const BUFFER_BYTES = 256 * 1024;
/** Node-side cost tolerated per connected stream beyond its buffer: socket, session, parser state. */
const PER_STREAM_OVERHEAD_BYTES = 64 * 1024;
/** Heap growth from the load itself (event history, blocks, JIT) in the same process. */
const LOAD_SLACK_BYTES = 160 * 1024 * 1024;

async function openCrowd(port: number, size: SlowCrowdSize): Promise<RawClient[]> {
  const out: RawClient[] = [];
  const batch = 50;
  for (let at = 0; at < size.sse + size.ws; at += batch) {
    const n = Math.min(batch, size.sse + size.ws - at);
    out.push(
      ...(await Promise.all(
        Array.from({ length: n }, (_, k) => {
          const i = at + k;
          return i < size.sse
            ? neverReadingSse(port, SSE_PATH, ip(40 + (i % 4), i))
            : neverReadingWs(port, '/events', '{}', ip(44 + (i % 4), i));
        }),
      )),
    );
  }
  return out;
}

function crowdNode(size: SlowCrowdSize): Promise<ServedTestNode> {
  return startServedNode({
    'streams.sse_clients_max': size.sse + size.readers + 10,
    'streams.ws_clients_max': size.ws + size.readers + 10,
    'gateway.connections_max': 2 * (size.sse + size.ws) + 100,
    'streams.subscriber_buffer_events_max': 200,
    'streams.subscriber_buffer_bytes_max': BUFFER_BYTES,
    'streams.sse_heartbeat_ms': 1_000,
    'streams.ws_ping_interval_ms': 1_000,
    'streams.event_history_max': 2_000,
  });
}

/** Commits bulky transactions until `cut()` reaches `target` or `txMax` were sent; how many were sent. */
async function loadUntilCut(t: ServedTestNode, cut: () => Promise<number>, target: number, txMax: number) {
  let sent = 0;
  while ((await cut()) < target && sent < txMax) {
    const batch = Array.from({ length: 10 }, () => bulkyTx(t, sent++));
    const results = await Promise.all(batch.map((tx) => submitAndWait(t.node, tx)));
    assert.ok(results.every((r) => r.status.kind === 'Committed'));
  }
  return sent;
}

/** Never-reading SSE + WebSocket clients are cut off; ordinary readers get every event in order. */
export async function slowCrowd(size: SlowCrowdSize): Promise<void> {
  const t = await crowdNode(size);
  const port = portOf(t.url);
  let crowd: RawClient[] = [];
  const readers: EventReader[] = [];
  try {
    const since = t.node.pipeline.events.lastId();
    const published = publishedIds(t.node);
    const base = memoryAfterGc();
    crowd = await openCrowd(port, size);
    // Readers resume from `since`, so an event published while they subscribe is not missed.
    for (let i = 0; i < size.readers; i++)
      readers.push(
        await readingSse(port, `${SSE_PATH}?last_event_id=${since}`),
        await readingWs(t.url, JSON.stringify({ since })),
      );
    const idle = memoryAfterGc();
    const sampler = rssPeak();
    // Cut off: SSE and WebSocket subscriptions ended as lagged, or WebSockets closed for missed pings
    // (the readers stay open, so every `closed` end here is the crowd's).
    const cut = async () =>
      (await streamCloses(t, 'sse', 'lagged')) +
      (await streamCloses(t, 'ws_events', 'lagged')) +
      (await streamCloses(t, 'ws_events', 'closed'));
    const started = Date.now();
    const sent = await loadUntilCut(t, cut, size.sse + size.ws, size.txMax);
    const cutOff = await cut();
    const perSubscriber = (bytes: number) => (bytes / (size.sse + size.ws) / 1024).toFixed(1);
    const cutMs = Date.now() - started;
    const last = t.node.pipeline.events.lastId();
    const caughtUp = await waitFor('readers', () => readers.every((r) => r.ids.at(-1) === last), 30_000).then(
      ok,
      ko,
    );
    // The node destroys a cut-off socket the client never reads from after a grace period (5 s).
    const dropped = await waitFor(
      'drops',
      async () => (await openConnections(t)) <= 2 * size.readers,
      15_000,
    ).then(ok, ko);
    const peak = sampler.stop();
    const lagged = (await streamCloses(t, 'sse', 'lagged')) + (await streamCloses(t, 'ws_events', 'lagged'));
    for (const c of crowd) c.socket.destroy();
    const end = memoryAfterGc();
    const expected = published.between(since, last);
    published.stop();
    const problems = readerProblems(readers, expected);
    figure('never-reading crowd', {
      'never-reading clients': `${size.sse} SSE + ${size.ws} WebSocket`,
      'cut off': `${cutOff} (${lagged} as lagged, ${cutOff - lagged} for missed pings)`,
      'transactions / events until all were cut': `${sent} / ${expected.length} in ${(cutMs / 1000).toFixed(1)} s`,
      'ordinary readers': `${2 * size.readers}, each received ${readers[0]?.ids.length} events in order`,
      'per idle subscriber, node + client in one process (RSS / heap)': `${perSubscriber(idle.rss - base.rss)} / ${perSubscriber(idle.heapUsed + idle.external - base.heapUsed - base.external)} KiB`,
      'RSS peak delta': mib(peak - base.rss),
      'RSS / heap delta after the crowd left': `${mib(end.rss - base.rss)} / ${mib(end.heapUsed - base.heapUsed)}`,
      lost: problems.filter((p) => p !== undefined).length,
    });
    assert.ok(caughtUp, 'ordinary readers caught up with the last event');
    assert.deepEqual(
      problems,
      readers.map(() => undefined),
      'every ordinary reader got every event, in order, and stayed',
    );
    assert.ok(dropped, 'the node dropped every cut-off socket');
    assert.equal(cutOff, size.sse + size.ws, `all never-reading clients cut off after ${sent} transactions`);
    const bound = (size.sse + size.ws) * (BUFFER_BYTES + PER_STREAM_OVERHEAD_BYTES) + LOAD_SLACK_BYTES;
    assert.ok(peak - base.rss < bound, `RSS grew ${mib(peak - base.rss)} (bound ${mib(bound)})`);
  } finally {
    for (const c of crowd) c.socket.destroy();
    for (const r of readers) r.close();
    await t.stopAll();
  }
}
