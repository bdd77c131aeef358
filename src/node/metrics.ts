// Core metric series of a node, named and labelled as the reference ledger names its own (block heights,
// transactions by outcome, queue, peers, view changes, commit time), registered on the gateway's per-node registry.
// Gauges are read when scraped; the commit-time histogram is fed by the pipeline's commit listener.

import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { QueriesPort } from '../gateway/ports.js';
import { quorumOf } from '../gateway/routes/common.js';
import type { Node } from './node.js';

/** `query_cursors_open`: live query cursors, so an operator sees cursors pile up (and the sweep free them). */
export function installQueryMetrics(registry: Registry, queries: QueriesPort): void {
  new Gauge({
    name: 'query_cursors_open',
    help: 'Live query cursors of signed iterable queries.',
    registers: [registry],
    collect() {
      this.set(queries.openCursors?.() ?? 0);
    },
  });
}

export function installNodeMetrics(registry: Registry, node: Node): void {
  const { pipeline, ledger } = node;
  const gauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read());
      },
    });
  gauge('block_height', 'Height of the newest committed block.', () => ledger.height());
  gauge(
    'block_height_non_empty',
    'Committed blocks holding at least one transaction.',
    () => pipeline.counters.blocksNonEmpty,
  );
  gauge('queue_size', 'Transactions waiting in the queue.', () => pipeline.queue.depth);
  gauge('queue_capacity', 'Capacity of the transaction queue.', () => pipeline.queue.capacity);
  const peers = () =>
    (node.network?.peers() ?? []).map((p) => ({ peerId: p.peerId, connected: p.connected }));
  gauge('connected_peers', 'Peers with a live connection.', () => peers().filter((p) => p.connected).length);
  // The quorum the status page reports (GET /status), for alerting: below the quorum no block commits.
  const self = node.nodeKey.publicKeyText();
  const quorum = () => quorumOf(node.engine.snapshot().validatorSet, { peerId: self, peers });
  gauge(
    'consensus_validators_reachable',
    'Validators of the current set this node has a live session with, itself included when it is one.',
    () => quorum().validatorsReachable,
  );
  gauge('consensus_validators', 'Validators in the current set.', () => quorum().validatorsTotal);
  gauge(
    'consensus_quorum_needed',
    'Validators needed to commit a block: fewer reachable than this and the chain cannot grow.',
    () => quorum().quorumNeeded,
  );
  gauge(
    'consensus_catching_up',
    '1 while the node is fetching committed blocks it has not got (block sync), else 0.',
    () => (node.engine.snapshot().catchingUp ? 1 : 0),
  );
  gauge('view_changes', 'View changes since start.', () => node.engine.snapshot().viewChanges);
  gauge(
    'consensus_far_messages',
    'Peer consensus messages dropped (or a NEW_VIEW capped) for naming a view or height beyond the windows.',
    () => node.engine.snapshot().round?.farMessages ?? 0,
  );
  gauge(
    'state_warm_up_bytes',
    'Key and value bytes the background warm-up of the world state has read (storage.warm_up).',
    () => node.warmUp?.task.read().bytes ?? 0,
  );
  gauge(
    'state_warm_up_done',
    '1 once the background warm-up of the world state has read everything (storage.warm_up), else 0.',
    () => (node.warmUp?.done ? 1 : 0),
  );
  gauge('domains', 'Registered domains.', () => ledger.state.domainCount());
  gauge('accounts', 'Registered accounts.', () => ledger.state.accountCount());
  gauge(
    'event_subscribers',
    'Live event bus subscribers (streams, bridge, metrics).',
    () => pipeline.events.subscriberCount,
  );
  new Gauge({
    name: 'txs',
    help: 'Transactions by outcome since start: accepted (committed), rejected (in a block), expired (in the queue).',
    labelNames: ['type'],
    registers: [registry],
    collect() {
      const c = pipeline.counters;
      this.set({ type: 'accepted' }, c.txsApproved);
      this.set({ type: 'rejected' }, c.txsRejected);
      this.set({ type: 'expired' }, c.txsExpired);
    },
  });
  new Counter({
    name: 'p2p_handshakes_refused_total',
    help: 'Inbound peer connections closed on arrival: too many handshakes pending from their address (per_address) or in the shared table (full).',
    labelNames: ['reason'],
    registers: [registry],
    collect() {
      const drops = node.network?.stats().drops;
      this.reset();
      this.inc({ reason: 'per_address' }, drops?.too_many_pending_from_address ?? 0);
      this.inc({ reason: 'full' }, drops?.too_many_pending ?? 0);
    },
  });
  const commitTime = new Histogram({
    name: 'commit_time_ms',
    help: 'Time to make a block durable and visible (append, fsync, apply), in milliseconds.',
    buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000],
    registers: [registry],
  });
  const blockTxs = new Counter({
    name: 'block_transactions_total',
    help: 'Transactions included in committed blocks.',
    registers: [registry],
  });
  pipeline.onCommit((executed, durationMs) => {
    commitTime.observe(durationMs);
    blockTxs.inc(executed.transactions.length);
  });
}
