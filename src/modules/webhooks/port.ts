// What the webhooks family needs from the node (gateway/family.ts; adapted in node/families.ts): the
// committed event feed with its ids (pipeline/event-bus.ts, the same ids as the SSE streams), the node
// clock, where its store lives, and the configuration it reads. Nothing here is a concrete node class.

import type { QueryPort } from '../../gateway/query-port.js';
import type { EventEnvelope } from '../../model/events.js';
import type { WebhooksConfig } from './config.js';

export interface WebhookEventFeed {
  /** Events with id > lastId still held in memory, or 'gone' when some are no longer held. */
  since(lastId: number): EventEnvelope[] | 'gone';
  /** Every event as it is published, in id order; returns the unsubscribe function. */
  subscribe(listener: (e: EventEnvelope) => void): () => void;
  lastId(): number;
}

export interface WebhooksPort {
  events: WebhookEventFeed;
  nowMs(): number;
  /** The folder of the webhook store (`<data>/webhooks`). */
  dir: string;
  /** `storage.fsync`: writes are flushed to disk before they are acknowledged. */
  fsync: boolean;
  config: WebhooksConfig;
  /**
   * Committed events after `afterId` read back from the chain, block by block, up to the tip at the call
   * (for a gap the bus no longer holds after a crash); absent: such a gap is logged, not recovered.
   */
  replay?(afterId: number, onBlock: (events: EventEnvelope[]) => void): Promise<void>;
  /** Blocks `replay(afterId, …)` would re-execute (from genesis to the tip), bounded by webhooks.recovery_blocks_max. */
  replayBlocks?(afterId: number): number;
  /** `gateway.filter_depth_max`, as for the event streams. */
  filterDepthMax: number;
  /** The query engine that compiles stored filters (the gateway's query port). */
  query: QueryPort;
}
