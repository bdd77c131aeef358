// Figure `webhook_deliveries_per_s`: a node in its own process (fsync on, served with
// its directory as `torana start` does, bench/lib/http-node.ts) with one webhook whose filter keeps every
// committed transaction, delivering to a receiver on 127.0.0.1 in the bench process (answers 204 at once).
// The load is the batch figure's (pre-signed transfers, batches of 256, 4 requests in flight) for the load
// duration. Value: deliveries received per second in the window; baseline: the rate of the events the
// webhook matches (committed transactions per second) in the same window, so the ratio says whether one
// webhook keeps up with the chain (1 = keeps up). After the load, the time the queue takes to drain is
// in `extra` (or the backlog left after DRAIN_MAX_MS). The queue caps are raised for the run, so that the
// figure measures delivery and not the documented dropping of a full queue.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ed25519KeyPair } from '../../src/crypto/signer.js';
import { accountId } from '../../src/model/ids.js';
import { ToranaClient } from '../../src/sdk/client.js';
import { BENCH_CHAIN_ID } from '../lib/chain.js';
import { HTTP_NODE_NOTE, startHttpNode } from '../lib/http-node.js';
import { presignedSigned } from '../lib/transfers.js';
import type { FigureContext, FigureResult } from '../lib/types.js';
import { type Figure, NO_GOAL, ratioOf } from '../lib/types.js';
import { BATCH_ITEMS, sendBatches } from './batch-committed.js';

const DRAIN_MAX_MS = 30_000;
const COMMITTED_TXS = { and: [{ eq: ['kind', 'transaction'] }, { eq: ['tx_status', 'Committed'] }] };

interface Sink {
  url: string;
  count(): number;
  close(): Promise<void>;
}

async function startSink(): Promise<Sink> {
  let n = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      n++;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    count: () => n,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/** Waits until every committed transaction since `base` was delivered (the node may still commit a while). */
async function drain(sink: Sink, target: () => number): Promise<number | undefined> {
  const t0 = performance.now();
  while (sink.count() < target() || performance.now() - t0 < 300) {
    if (performance.now() - t0 > DRAIN_MAX_MS) return undefined;
    await new Promise((r) => setTimeout(r, 20));
  }
  return performance.now() - t0;
}

export const webhookDeliveriesFigure: Figure = {
  id: 'webhook_deliveries_per_s',
  async run(ctx: FigureContext): Promise<FigureResult> {
    const seconds = ctx.fixtures.loadSeconds();
    const node = await startHttpNode({
      withDir: true,
      config: { 'webhooks.queue_per_webhook_max': 10_000_000, 'webhooks.queue_total_max': 10_000_000 },
    });
    const sink = await startSink();
    try {
      const key = Ed25519KeyPair.generate();
      const owner = new ToranaClient({
        url: node.url,
        account: accountId(key.publicKeyText(), 'bench'),
        signer: key,
      });
      const hook = await owner.createWebhook({ url: sink.url, filter: COMMITTED_TXS });
      const base = (await node.nextCount()).committed;
      const source = presignedSigned(node.accounts, BENCH_CHAIN_ID, ctx.fixtures.presignCount());
      ctx.log(`${seconds} s of batched transfers with one webhook delivering every committed transaction`);
      const start = await node.nextCount();
      const delivered0 = sink.count();
      await sendBatches(node.url, seconds, () => source.next().bytes);
      const end = node.latest();
      const delivered1 = sink.count();
      const windowS = (end.atMs - start.atMs) / 1000;
      const eventsPerS = (end.committed - start.committed) / windowS;
      const deliveriesPerS = (delivered1 - delivered0) / windowS;
      // Every transaction committed after the registration is one delivery.
      const drainMs = await drain(sink, () => node.latest().committed - base);
      const state = await owner.getWebhook(hook.id);
      const ratio = ratioOf(deliveriesPerS, eventsPerS);
      return {
        id: 'webhook_deliveries_per_s',
        value: deliveriesPerS,
        unit: 'deliveries/s',
        baseline: 'matched events/s (committed transactions) in the same window',
        baseline_value: eventsPerS,
        ratio,
        goal: NO_GOAL,
        met: true,
        note: `${HTTP_NODE_NOTE}; served with its directory; one webhook, receiver on loopback answering 204; load: batches of ${BATCH_ITEMS}`,
        extra: {
          events: end.committed - start.committed,
          delivered_in_window: delivered1 - delivered0,
          seconds: windowS,
          drain_ms_after_load:
            drainMs === undefined ? `not drained in ${DRAIN_MAX_MS} ms` : Math.round(drainMs),
          pending_at_end: state.pending,
          dropped: state.dropped,
          dead_letters: state.dead_letters,
        },
      };
    } finally {
      await sink.close();
      await node.stop();
    }
  },
};
