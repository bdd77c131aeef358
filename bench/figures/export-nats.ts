// Figure `export_events_per_s`: `torana export --nats` (src/export/nats-export.ts, run in the bench
// process) draining a backlog of committed events from a node in its own process into a fresh JetStream
// stream of a local `nats-server -js` (Debian package nats-server). The backlog is the batch figure's
// load (pre-signed transfers) for the load duration, kept whole by a raised `streams.event_history_max`.
// Value: events stored per second, from the exporter's start until the stream holds the node's last
// committed event. Baseline, same run and server: a bare JetStream publish loop of as many messages of
// the same mean size, with the same Nats-Msg-Id / expected-last-id headers and the same in-flight window,
// into a stream of its own (no node, no SSE, no decoding): ratio 1 = the exporter adds nothing to
// JetStream's own cost.

import { connect, type JetStreamClient } from 'nats';
import { runExport } from '../../src/export/nats-export.js';
import { appliedEventId } from '../../src/pipeline/event-id.js';
import { startNatsServer } from '../../test/helpers/nats-server.js';
import { BENCH_CHAIN_ID } from '../lib/chain.js';
import { HTTP_NODE_NOTE, startHttpNode } from '../lib/http-node.js';
import { waitIdle } from '../lib/node-idle.js';
import { presignedSigned } from '../lib/transfers.js';
import type { FigureContext, FigureResult } from '../lib/types.js';
import { type Figure, NO_GOAL, ratioOf } from '../lib/types.js';
import { sendBatches } from './batch-committed.js';

const IN_FLIGHT = 256;
const WAIT_MAX_MS = 300_000;

/** Publishes `n` messages of `bytes` each as the exporter does (window, dedup id, expectation). */
async function bareLoop(js: JetStreamClient, n: number, bytes: number): Promise<number> {
  const body = new Uint8Array(bytes).fill(0x61);
  const inFlight: Promise<unknown>[] = [];
  const t0 = performance.now();
  for (let i = 1; i <= n; i++) {
    if (inFlight.length >= IN_FLIGHT) await inFlight.shift();
    inFlight.push(
      js.publish('bare.events.x', body, {
        msgID: String(i),
        ...(i === 1 ? {} : { expect: { lastMsgID: String(i - 1) } }),
      }),
    );
  }
  await Promise.all(inFlight);
  return n / ((performance.now() - t0) / 1000);
}

export const exportNatsFigure: Figure = {
  id: 'export_events_per_s',
  async run(ctx: FigureContext): Promise<FigureResult> {
    await import('../../src/modules/load.js'); // the modules' event scopes, as `torana export` loads them
    const seconds = ctx.fixtures.loadSeconds();
    const nats = await startNatsServer();
    const node = await startHttpNode({ withDir: true, config: { 'streams.event_history_max': 10_000_000 } });
    const nc = await connect({ servers: nats.url });
    try {
      const source = presignedSigned(node.accounts, BENCH_CHAIN_ID, ctx.fixtures.presignCount());
      ctx.log(`${seconds} s of batched transfers, then the exporter drains the events into JetStream`);
      await sendBatches(node.url, seconds, () => source.next().bytes);
      const height = await waitIdle(node, WAIT_MAX_MS);
      const target = appliedEventId(height);

      const jsm = await nc.jetstreamManager();
      const stop = new AbortController();
      const t0 = performance.now();
      const exporting = runExport({
        natsUrl: nats.url,
        gatewayUrl: node.url,
        stream: 'BENCH',
        subjectPrefix: 'torana',
        inFlightMax: IN_FLIGHT,
        duplicateWindowMs: 120_000,
        since: 0,
        signal: stop.signal,
        log: (line) => ctx.log(line),
        progressEveryMs: 60_000,
      });
      // The exporter's own failure ends the wait at once (and is the figure's error), not the deadline.
      let failed: unknown;
      exporting.catch((e: unknown) => {
        failed = e ?? new Error('exporter failed');
      });
      let state = { messages: 0, bytes: 0 };
      for (;;) {
        if (failed !== undefined) throw failed;
        const info = await jsm.streams.info('BENCH').catch(() => undefined);
        if (info !== undefined && info.state.messages > 0) {
          state = info.state;
          const last = await jsm.streams.getMessage('BENCH', { seq: info.state.last_seq });
          // At or past the target: JetStream stores in id order (expected-last-id), so all of it is held.
          if ((last.json() as { id: number }).id >= target) break;
        }
        if (performance.now() - t0 > WAIT_MAX_MS) throw new Error(`export not drained in ${WAIT_MAX_MS} ms`);
        await new Promise((r) => setTimeout(r, 20));
      }
      const exportS = (performance.now() - t0) / 1000;
      stop.abort();
      const summary = await exporting;
      const value = state.messages / exportS;
      const meanBytes = Math.round(state.bytes / state.messages);
      await jsm.streams.add({ name: 'BARE', subjects: ['bare.>'], duplicate_window: 120_000 * 1_000_000 });
      const bare = await bareLoop(nc.jetstream(), state.messages, meanBytes);
      return {
        id: 'export_events_per_s',
        value,
        unit: 'events/s',
        baseline: `bare JetStream publish loop, same count, size, headers and window (${IN_FLIGHT})`,
        baseline_value: bare,
        ratio: ratioOf(value, bare),
        goal: NO_GOAL,
        met: true,
        note: `${HTTP_NODE_NOTE}; exporter in the bench process, from the start of a backlog; nats-server -js on loopback`,
        extra: {
          events: state.messages,
          seconds: Number(exportS.toFixed(2)),
          mean_stored_bytes: meanBytes,
          published: summary.published,
          resyncs: summary.resyncs,
        },
      };
    } finally {
      await nc.close();
      await node.stop();
      await nats.stop();
    }
  },
};
