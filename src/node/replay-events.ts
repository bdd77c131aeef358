// The committed events read back from the block log for a module that follows them (modules/descriptor.ts
// `CommittedEventReplay`): after a crash between a block's fsync and the module store's, the bus of the
// next run starts at the tip and no longer holds that block's events. Events are not stored, only derived: the blocks are
// re-executed from genesis on an empty world state (as `torana verify` does) and the events of the
// heights asked for are handed over block by block, with the ids the bus gave them (event-id.ts).
// Costly (the whole chain), so it runs only for such a gap, in the background, yielding between blocks.

import { blockHash } from '../model/block.js';
import { decodeBlockWithSpans, spanTransactionHash } from '../model/block-spans.js';
import type { EventEnvelope } from '../model/events.js';
import { committedBlockEvents } from '../pipeline/commit-events.js';
import { appliedEventId, committedEventId, eventIdPlace } from '../pipeline/event-id.js';
import { executeProposal } from '../pipeline/executed-block.js';
import { stateRootVersion } from '../state/merkle/hash.js';
import { WorldState } from '../state/world-state.js';
import { bytesEqual } from '../util/hex.js';
import { decodeLimitsOf } from './load-config.js';
import type { Node } from './node.js';

const YIELD_EVERY_BLOCKS = 16;

/**
 * Calls `onBlock` with the committed events after event `afterId` up to the current tip, block by block
 * in order (the whole block of `afterId`; the caller skips what it has seen).
 */
export async function replayCommittedEvents(
  node: Node,
  afterId: number,
  onBlock: (events: EventEnvelope[]) => void,
): Promise<void> {
  const fromHeight = Math.max(1, eventIdPlace(afterId).height);
  const toHeight = node.ledger.height();
  const state = WorldState.fromEntries([]);
  const limits = {
    ...decodeLimitsOf(node.config),
    bytesMax: Number.MAX_SAFE_INTEGER,
    itemsMax: Number.MAX_SAFE_INTEGER,
  };
  for (let h = 1; h <= toHeight; h++) {
    const bytes = await node.pipeline.blockBytes(h);
    if (bytes === undefined) throw new Error(`block ${h} is not in the log`);
    const d = decodeBlockWithSpans(bytes, limits);
    if (!d.ok) throw new Error(`block ${h} does not decode: ${d.error.code}`);
    const { block, spans } = d.value;
    const { header } = block;
    const executed = executeProposal(state, node.config.node.chainId, {
      height: h,
      prevHash: header.prevHash,
      view: header.view,
      creationTimeMs: header.creationTimeMs,
      transactions: block.transactions,
      hashes: spans.map((s) => spanTransactionHash(bytes, s)),
      genesis: h === 1,
      stateRootVersion: stateRootVersion(header.stateRoot),
    });
    if (!bytesEqual(executed.hash, blockHash(header)))
      throw new Error(`re-executing block ${h} does not reproduce its header`);
    executed.execution.commit();
    if (h >= fromHeight) {
      const { events } = committedBlockEvents(executed);
      const last = events.length - 1;
      onBlock(
        events.map((event, i) => ({ id: i === last ? appliedEventId(h) : committedEventId(h, i), event })),
      );
    }
    if (h % YIELD_EVERY_BLOCKS === 0) await new Promise((r) => setImmediate(r));
  }
}

/** Reading committed events back from the chain (a module's `replay`, modules/descriptor.ts). */
export function committedEventReplay(node: Node): {
  replay(afterId: number, onBlock: (events: EventEnvelope[]) => void): Promise<void>;
  blocks(): number;
} {
  return {
    replay: (afterId, onBlock) => replayCommittedEvents(node, afterId, onBlock),
    blocks: () => node.ledger.height(),
  };
}
